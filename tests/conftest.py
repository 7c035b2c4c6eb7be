"""Shared test settings: a hypothesis profile sized for CI."""
from hypothesis import HealthCheck, settings

settings.register_profile(
    "beastodds", max_examples=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("beastodds")
