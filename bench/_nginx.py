"""The shipped reverse proxy, run as docker-compose.yml's ``proxy`` service runs it, here.

``config/nginx.conf.template`` rendered as the official nginx image renders it
(``/docker-entrypoint.d/20-envsubst-on-templates.sh``: ``envsubst`` given the names of the
*defined* environment variables only, so nginx's own ``$http_host`` stays), with the
``proxy`` service's environment read from docker-compose.yml with its defaults; only where
nginx listens, where gunicorn is and the cache's folder are local. The OS nginx runs it inside
an outer ``nginx.conf`` shaped like the image's. Used by tests/browser/test_proxy.py and
bench/event_load.py.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
COMPOSE_FILE = REPO / "docker-compose.yml"
TEMPLATE = REPO / "config" / "nginx.conf.template"
NGINX = Path(os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx")

_INTERPOLATION = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^}$]|\$\$)*))?\}")


def interpolate(value: str, variables: Mapping[str, str]) -> str:
    """Compose's interpolation of one value: ``${NAME}``, ``${NAME:-default}``,
    ``${NAME-default}``, ``${NAME:?error}``, ``${NAME?error}`` and ``$$`` (a literal ``$``)."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, argument = match.groups()
        given = variables.get(name)
        missing = not given if operator and operator.startswith(":") else given is None
        if operator in (":-", "-"):
            return interpolate(argument, variables) if missing else str(given)
        if operator in (":?", "?"):
            if missing:
                raise ValueError(f"{name}: {argument}")
            return str(given)
        assert given is not None, f"${{{name}}} has no default and is not given"
        return given

    return _INTERPOLATION.sub(one, value)


def compose_service(name: str, variables: Mapping[str, str]) -> dict[str, Any]:
    """One service of docker-compose.yml (anchors and ``<<`` merged), its environment and
    command interpolated as ``docker compose`` would with ``variables`` exported."""
    import yaml

    service = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))["services"][name]
    service["environment"] = {
        key: interpolate(str(value), variables) for key, value in service["environment"].items()
    }
    if "command" in service:
        service["command"] = [interpolate(str(word), variables) for word in service["command"]]
    return service


#: Variables the nginx image itself defines in its containers, beside compose's: envsubst
#: replaces them too (their names matter here, not their values).
IMAGE_ENVIRONMENT = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "HOSTNAME": "proxy",
    "NGINX_VERSION": "1.27.5",
    "NJS_VERSION": "0.8.10",
    "PKG_RELEASE": "1",
}


def render_template(compose_environment: Mapping[str, str]) -> str:
    """What the nginx image's 20-envsubst-on-templates.sh writes to conf.d/default.conf:
    ``envsubst "${NAME} ${NAME} ..."`` naming every variable defined in the container."""
    environment = {**IMAGE_ENVIRONMENT, **compose_environment}
    defined = " ".join(f"${{{name}}}" for name in environment)
    rendered = subprocess.run(
        [str(shutil.which("envsubst")), defined],
        input=TEMPLATE.read_text(encoding="utf-8"),
        env=dict(environment),
        capture_output=True,
        text=True,
        check=True,
    )
    return rendered.stdout


#: The image's /etc/nginx/nginx.conf, with its paths in ``root`` (its workers run as the
#: caller's user: as root, nginx's default, nobody, could not write the temporary files).
OUTER_CONF = """\
{user}
worker_processes {workers};
error_log {root}/error.log notice;
events {{
    worker_connections {connections};
}}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for" cache=$upstream_cache_status';
    access_log {access_log};
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path {root}/temp/body;
    proxy_temp_path {root}/temp/proxy;
    fastcgi_temp_path {root}/temp/fastcgi;
    uwsgi_temp_path {root}/temp/uwsgi;
    scgi_temp_path {root}/temp/scgi;
    include {root}/conf.d/*.conf;
}}
"""


def prepare(
    root: Path,
    *,
    listen: str,
    upstreams: list[str],
    workers: int | str = 1,
    connections: int = 1024,
    access_log: bool = True,
) -> dict[str, str]:
    """Write ``root``/nginx.conf and ``root``/conf.d/default.conf: the template rendered with
    compose's ``proxy`` environment, listening on ``listen`` in front of ``upstreams`` (one
    ``host:port`` a web node; several are written as the README says, "a; server b"), its cache
    in ``root``/cache. Returns the environment it was rendered with."""
    proxy = compose_service("proxy", {})["environment"]
    assert proxy["NGINX_LISTEN"] == "8080" and proxy["NGINX_UPSTREAM"] == "web:8000"
    environment = {
        **proxy,
        "NGINX_LISTEN": listen,
        "NGINX_UPSTREAM": "; server ".join(upstreams),
        "NGINX_CACHE_PATH": f"{root}/cache",  # compose's: a tmpfs in the container
    }
    (root / "conf.d").mkdir(parents=True, exist_ok=True)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (root / "temp" / temp).mkdir(parents=True, exist_ok=True)
    (root / "conf.d" / "default.conf").write_text(render_template(environment), encoding="utf-8")
    user = f"user {pwd.getpwuid(os.getuid()).pw_name};" if os.getuid() == 0 else ""
    conf = OUTER_CONF.format(
        user=user,
        root=root,
        workers=workers,
        connections=connections,
        access_log=f"{root}/access.log main" if access_log else "off",
    )
    (root / "nginx.conf").write_text(conf, encoding="utf-8")
    return environment


def command(root: Path, *options: str, directives: str = "") -> list[str]:
    """The command line of the nginx in ``root`` (prefix, configuration, pid file)."""
    return [
        str(NGINX), *options,
        "-p", f"{root}/",
        "-e", f"{root}/error.log",
        "-c", str(root / "nginx.conf"),
        "-g", f"pid {root}/nginx.pid; {directives}",
    ]  # fmt: skip


def start(root: Path) -> subprocess.Popen[bytes]:
    """nginx in the foreground (``daemon off``), its output in ``root``/nginx.out."""
    with (root / "nginx.out").open("wb") as log:
        return subprocess.Popen(command(root, directives="daemon off;"), stdout=log, stderr=log)


def process_ids(master: int) -> list[int]:
    """The nginx master ``master`` and its worker and cache processes."""
    children = Path(f"/proc/{master}/task/{master}/children")
    try:
        return [master, *map(int, children.read_text().split())]
    except OSError:
        return [master]
