"""A player's name as the reader's language shows it: one rule for the public pages, the
director's screens and the referee API."""

from __future__ import annotations

from django.utils.translation import get_language


def display_name(name: str, chinese_name: str, language: str | None = None) -> str:
    """In Chinese the Chinese name first ("张伟 Zhang Wei"), in any other language the Latin
    name first ("Zhang Wei 张伟"); one name when only one is entered, or both are the same.
    ``language``: a language code, the active one when None."""
    if not chinese_name or chinese_name == name:
        return name
    if not name:
        return chinese_name
    if (language or get_language() or "").lower().startswith("zh"):
        return f"{chinese_name} {name}"
    return f"{name} {chinese_name}"
