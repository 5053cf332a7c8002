// Keeps the Import layer non-empty until it has sources of its own.
