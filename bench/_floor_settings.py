"""Settings of ``bench/api_floor.py``'s server: production settings, the floor's URLs."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench._floor_urls"
