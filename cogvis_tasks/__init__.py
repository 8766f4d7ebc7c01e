"""cogvis_tasks."""
