"""Pure helpers of the Discord front end, tested without SimCord: the words of the rules."""
