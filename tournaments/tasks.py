"""Celery tasks of the tournaments app."""

from celery import shared_task


@shared_task(name="tournaments.tasks.ping")
def ping() -> dict[str, bool]:
    """Health task: proves a worker picks up and answers a message.  No database."""
    return {"pong": True}
