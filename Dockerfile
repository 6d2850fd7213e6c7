# Production image: gunicorn serving config.wsgi on 0.0.0.0:8000, as a non-root user.
# The same image runs the Celery worker and beat (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN groupadd --system --gid 1000 app \
    && useradd --system --uid 1000 --gid app --home-dir /app --shell /usr/sbin/nologin app

WORKDIR /app

# Dependencies first, so code changes do not invalidate this layer. Runtime pins only: the
# development and test tools of requirements-dev.lock never enter the image.
COPY requirements.lock ./
RUN pip install -r requirements.lock

# Code and collected static files stay owned by root: the app user can read but not change them.
COPY . .

# collectstatic only needs settings to import: give it a throwaway key (long enough for the
# production guard) and host (DEBUG is off).
RUN SECRET_KEY=collectstatic-only-throwaway-key-never-used-at-run-time-0123456789 \
    ALLOWED_HOSTS=localhost DEBUG=false \
    python manage.py collectstatic --noinput

USER app

# numba's cache of the solver's compiled search (referee/rules/solver_jit.py): the code is
# read-only to the app user, so the cache lives where it may write
ENV NUMBA_CACHE_DIR=/tmp/numba-cache

EXPOSE 8000

# config/gunicorn.py: gthread workers, WEB_CONCURRENCY processes x GUNICORN_THREADS threads.
ENV WEB_CONCURRENCY=5
CMD ["gunicorn", "config.wsgi:application", "--config", "config/gunicorn.py", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
