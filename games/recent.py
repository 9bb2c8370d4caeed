"""A bounded map of what one server process worked out and keeps for its threads: the values
most recently used, the oldest dropped past `size` (a round shared by version, a group's
look-back, a night's picture)."""

import threading
from collections import OrderedDict


class Recent:
    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        """The value kept for `key` (now the most recently used), or None."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        """Forget everything kept (a database put back from a backup repeats ids and versions)."""
        with self._lock:
            self._values.clear()
