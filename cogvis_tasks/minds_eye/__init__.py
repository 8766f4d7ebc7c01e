"""Mind's Eye: released data, prompt conditions, letter extraction, scoring and reports."""
