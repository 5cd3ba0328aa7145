"""Foundation: errors that name the field, the one safe JSON reader, units, package resources.

Imports nothing of the project.
"""

__all__ = ["errors", "jsonio", "resources", "units", "version"]
