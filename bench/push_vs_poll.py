"""Push or poll: what one spectator's live-board update costs the server, each way.

The live board changes when a referee writes (about once a second across a 334-table event:
``--update``). Two ways to bring it to N spectators (``--spectators``), measured here on the
same machine, both through the project's nginx (config/nginx.conf.template rendered as compose
renders it, bench/_nginx.py):

* poll: what the pages do now. Each spectator asks for the board's fragment every 3 s
  (templates/public/live.html) with If-None-Match; the application (a stand-in process that
  serves a fragment of ``--size`` bytes, public for one second, with an ETag that changes at
  each update) is asked once a second at most, nginx answers the rest from its cache: 304 when
  the spectator has the copy already, 200 with the new copy otherwise.
* push: server-sent events. Each spectator holds a stream open; at each update the cheapest
  Python push there is (one asyncio process writing the same event to every stream, no
  Django, no database) sends it, through nginx (unbuffered: ``X-Accel-Buffering: no``).

The client side (this process) is not counted. Printed per way: the server's CPU seconds per
second (nginx's processes and the application's) and per 1,000 updates delivered (a 200 with a
new board, or an event), and how old the board a spectator sees is (mean and p95 seconds from
the update to the spectator having it).

    python bench/push_vs_poll.py [--spectators 2000] [--seconds 30] [--update 1] [--size 6000]

Measured on the shared 2-core development machine (load 8, other work running: noisy), two
runs of --spectators 1000 --seconds 20 (the first run printed CPU s/s and counts only: its
two µs columns are computed from them; the integrator reruns it on a quiet machine):

             way  specs delivered   CPU s/s  µs/spectator   µs/update    age s   p95 s
   poll (cached)   1000      6372     0.025          25.0        78.5     1.15    2.12
      push (SSE)   1000     14215     0.035          35.0        49.2     0.31    0.59
   poll (cached)   1000      6408     0.022          22.4        79.6     1.63    2.54
      push (SSE)   1000     14061     0.032          31.6        46.2     0.43    0.85

Kept: the polls. At the pages' 3 s cadence a spectator costs the server about 30 % less CPU
polling through nginx's cache than held on the cheapest push there is (which delivers every
update, each cheaper, but three times as many, and the board 1 s fresher, which a spectator
watching a 5-second-per-action table does not need); and that push is a bare asyncio loop: in
the project it would be a long-lived stream per spectator, which a gunicorn gthread worker
holds with a thread each (12 a node by default), so it needs an ASGI server and a Redis fan-out
per node besides, all more than measured here. The pages keep working with polling alone and,
without JavaScript, with a reload.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _nginx  # noqa: E402
from bench._cpu import cpu_seconds  # noqa: E402

POLL_S = 3.0  # templates/public/live.html data-interval


def board(version: int, at: float, size: int) -> bytes:
    """A live board's fragment of ``size`` bytes at ``version``, made at ``at`` (the
    monotonic clock, which every process of the machine shares)."""
    return (f"<section data-version={version} data-at={at:.6f}>".encode() + b"x" * size)[:size]


def made_at(body: bytes) -> float:
    return float(body.split(b"data-at=", 1)[1].split(b">", 1)[0])


async def serve_application(port: int, update: float, size: int, push: bool) -> None:
    """The stand-in application: the fragment (poll), or the stream of events (push)."""
    started = time.monotonic()
    streams: set[asyncio.StreamWriter] = set()

    def version() -> int:
        return int((time.monotonic() - started) / update)

    def at(v: int) -> float:
        return started + v * update

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if not head:
                    return
                if push:
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                        b"Cache-Control: no-store\r\nX-Accel-Buffering: no\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n"
                    )
                    streams.add(writer)
                    await reader.read()  # until the spectator leaves
                    return
                v = version()
                body = board(v, at(v), size)
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                    + f'Cache-Control: public, max-age=1\r\nETag: "{v}"\r\n'.encode()
                    + b"Vary: Accept-Language, Cookie\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            streams.discard(writer)
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=4096)
    async with server:
        last = -1
        while True:
            await asyncio.sleep(0.01)
            v = version()
            if push and v != last:
                last = v
                data = b"data: " + board(v, at(v), size) + b"\n\n"
                chunk = f"{len(data):x}\r\n".encode() + data + b"\r\n"
                for writer in list(streams):
                    writer.write(chunk)


def cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


async def spectator_poll(port: int, stop: float, ages: list[float], got: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    etag = ""
    await asyncio.sleep(random.uniform(0, POLL_S))
    while time.monotonic() < stop:
        conditional = f"If-None-Match: {etag}\r\n" if etag else ""
        writer.write(
            f"GET /t/event/live/?fragment=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept-Language: en\r\n{conditional}\r\n".encode()
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        length = 0
        for line in head.split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            if name.lower() == "etag":
                etag = value.strip()
        body = await reader.readexactly(length)
        if head.split()[1] == "200":
            got[0] += 1
            ages.append(time.monotonic() - made_at(body))
        await asyncio.sleep(POLL_S)
    writer.close()


async def spectator_push(port: int, stop: float, ages: list[float], got: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /t/event/live/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    await reader.readuntil(b"\r\n\r\n")
    stream = b""  # nginx re-chunks the stream: events are cut where it likes
    with contextlib.suppress(TimeoutError, asyncio.IncompleteReadError):
        while time.monotonic() < stop:
            line = await asyncio.wait_for(reader.readline(), stop - time.monotonic())
            stream += (await reader.readexactly(int(line, 16) + 2))[:-2]
            while b"\n\n" in stream:
                event, stream = stream.split(b"\n\n", 1)
                got[0] += 1
                ages.append(time.monotonic() - made_at(event))
    writer.close()


async def watch(args: argparse.Namespace, port: int, push: bool) -> tuple[list[float], int]:
    ages: list[float] = []
    got = [0]
    stop = time.monotonic() + args.seconds
    one = spectator_push if push else spectator_poll
    await asyncio.gather(
        *(one(port, stop, ages, got) for _ in range(args.spectators)),
        return_exceptions=True,
    )
    return ages, got[0]


def measure(args: argparse.Namespace, push: bool, port: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="push_vs_poll-"))
    app_port = port + 1
    app = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(app_port), "--update", str(args.update),
         "--size", str(args.size)] + (["--push"] if push else []),
    )  # fmt: skip
    _nginx.prepare(
        root, listen=f"127.0.0.1:{port}", upstreams=[f"127.0.0.1:{app_port}"],
        workers=1, connections=4 * args.spectators + 100, access_log=False,
    )  # fmt: skip
    nginx = _nginx.start(root)
    time.sleep(1.5)
    try:
        pids = lambda: [app.pid, nginx.pid, *_nginx.process_ids(nginx.pid)[1:]]  # noqa: E731
        before, wall = cpu(pids()), time.monotonic()
        ages, delivered = asyncio.run(watch(args, port, push))
        spent, wall = cpu(pids()) - before, time.monotonic() - wall
    finally:
        nginx.terminate()
        app.terminate()
        nginx.wait(timeout=30)
        app.wait(timeout=30)
    ages = [max(0.0, a) for a in ages]
    p95 = statistics.quantiles(ages, n=20)[-1] if len(ages) > 1 else float("nan")
    print(
        f"{'push (SSE)' if push else 'poll (cached)':>14} {args.spectators:>6} "
        f"{delivered:>9} {spent / wall:>9.3f} "
        f"{1e6 * spent / wall / args.spectators:>13.1f} {1e6 * spent / max(delivered, 1):>11.1f} "
        f"{statistics.fmean(ages) if ages else float('nan'):>8.2f} {p95:>7.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--update", type=float, default=1.0, help="seconds between updates")
    parser.add_argument("--size", type=int, default=6000, help="the fragment's bytes")
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--push", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve_application(args.serve, args.update, args.size, args.push))
        return
    print(
        f"{args.spectators} spectators, an update every {args.update:g} s, a {args.size}-byte "
        f"board, {args.seconds:g} s each way, through nginx; load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'way':>14} {'specs':>6} {'delivered':>9} {'CPU s/s':>9} {'µs/spectator':>13} "
        f"{'µs/update':>11} {'age s':>8} {'p95 s':>7}"
    )
    measure(args, push=False, port=args.port)
    measure(args, push=True, port=args.port + 2)


if __name__ == "__main__":
    main()
