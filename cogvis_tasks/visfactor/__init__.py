"""VisFactor: data, prompts, scoring and reports (harness-agnostic)."""
