"""What a change the table asks for can meet instead of being made."""


class Conflict(Exception):
    """The hand was saved from another phone since this one loaded it."""

    def __init__(self, saved):
        super().__init__("saved from another phone")
        self.saved = saved


class Refused(Exception):
    """A change the table's rules refuse: the message says why, for the page."""


class Question(Exception):
    """A save the table is asked about first (a hand of counted cards that could have won the
    round): the message is the question, for the page."""
