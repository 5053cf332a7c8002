// Keeps the Report layer non-empty until it has sources of its own.
