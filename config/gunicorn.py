"""gunicorn settings of the web service: docker compose's ``web``, the image's command and
``bench/api_load.py`` (``gunicorn config.wsgi:application --config config/gunicorn.py``).

gthread workers: a worker process serves its connections from a pool of threads, so a
request waiting on PostgreSQL does not hold a CPU, and a phone's keep-alive connection
stays with one process (nothing depends on it: a hand write builds its state from the
hand row, ``tournaments.hands.writing``). A few processes per core (Python runs one thread of a
process at a time), a few threads each to cover the database waits; each thread keeps its
own database connection (``CONN_MAX_AGE``).
"""

import os

worker_class = "gthread"
# 5 processes (gunicorn's advice, 2 x cores + 1, for 2 cores): on a 2-core machine at 334
# tables and 2,000 spectators (bench/event_load.py --step-up, through nginx), writes p99 95 ms
# with 5 against 354 ms with 3. Set WEB_CONCURRENCY to 2 x the node's cores + 1.
workers = int(os.environ.get("WEB_CONCURRENCY", "5"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Phones write every few seconds: keep their connections open between actions.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "15"))
# Open connections one worker holds (idle keep-alive ones wait without a thread).
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
backlog = 2048
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
# Behind the nginx proxy (docker-compose.yml): X-Forwarded-Proto sets the request's scheme
# only on a connection from the proxy's address, and no other scheme header is believed.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
