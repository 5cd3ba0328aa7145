"""Device records (JSON, one file per device class), read through importlib.resources by planner.models.catalog."""
