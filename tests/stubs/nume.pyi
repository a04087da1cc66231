from typing import Optional


class Nume:
    @property
    def komi(self) -> Optional[tuple[float, str]]: ...
