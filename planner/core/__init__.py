"""Foundation: errors that name the field, the one safe JSON reader, the one CSV
writer, user paths resolved safely, units, package resources, shared type aliases.

Imports nothing of the project.
"""

__all__ = ["csvsafe", "errors", "jsonio", "paths", "resources", "tables", "types", "units", "version"]
