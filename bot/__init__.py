"""The application: entry point, settings, the Discord client, the game service, its front end."""
