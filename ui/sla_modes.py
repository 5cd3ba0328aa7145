"""The SLA page's ways to describe a database (shared with the pages that send one there)."""
SLA_IO_MODE = "its IO (size, threads, block size, read share)"
SLA_DBA_MODE = "what a DBA knows (size, buffer pool, HammerDB rate)"
