"""Running: plain-data state, the machine that advances it, and per-seat views."""
