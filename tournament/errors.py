class ServiceError(Exception):
    """A refusal to show the user: the message says what is wrong and where."""

    def __init__(self, message, *, details=()) -> None:
        super().__init__(str(message))
        self.message = message
        self.details = list(details)
