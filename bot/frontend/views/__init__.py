"""Messages drawn from the game's state: Components V2 layouts and the stats embeds."""
