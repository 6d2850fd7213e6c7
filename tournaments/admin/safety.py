"""What keeps a director's bad input in the admin from becoming a 500.

* Autocomplete fields render whatever value came back (a non-integer id in the query string
  or a refused POST) without asking the database to compare it with an integer column.
* A refusal behind a save or a delete (a service's ApplicationError, a trigger, a unique
  constraint the form did not see, a value out of range) rolls everything back and becomes
  an error message.
"""

from typing import Any

from django.contrib import messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError

#: A service's refusal, and the database errors that mean "this change is refused" (not "the
#: database is down").
REFUSALS = (ApplicationError, IntegrityError, DataError)


class SafeAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete widget, ignoring selected values its target field cannot read."""

    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        target = self.field.remote_field.model._meta.get_field(
            getattr(self.field.remote_field, "field_name", None) or "pk"
        )
        return super().optgroups(name, [v for v in value if _readable(target, v)], attr)


def _readable(field: Any, value: Any) -> bool:
    try:
        field.run_validators(field.to_python(value))  # the validators bound integers
    except (ValidationError, TypeError, ValueError, OverflowError):
        return False
    return True


class SafeAutocompleteMixin:
    """For model admins and inlines: autocomplete fields use ``SafeAutocompleteSelect``."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        autocomplete = self.get_autocomplete_fields(request)  # type: ignore[attr-defined]
        if "widget" not in kwargs and db_field.name in autocomplete:
            kwargs["widget"] = SafeAutocompleteSelect(
                db_field,
                self.admin_site,  # type: ignore[attr-defined]
                using=kwargs.get("using"),
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


def refusal_message(exc: Exception) -> str:
    if isinstance(exc, ApplicationError):
        return _("Nothing was saved: %(reason)s") % {"reason": exc.message}
    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
    return _("Nothing was saved: the database refused the change (%(reason)s).") % {
        "reason": reason
    }


class DatabaseRefusalMixin:
    """For model admins: a database refusal in the add, change, delete or list view (its
    transaction rolled back) answers with an error message on the page it came from."""

    def _refused(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        self.message_user(request, refusal_message(exc), level=messages.ERROR)  # type: ignore[attr-defined]
        return HttpResponseRedirect(request.get_full_path())

    def changeform_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().changeform_view(request, *args, **kwargs)  # type: ignore[misc]
        except REFUSALS as exc:
            return self._refused(request, exc)

    def delete_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().delete_view(request, *args, **kwargs)  # type: ignore[misc]
        except REFUSALS as exc:
            return self._refused(request, exc)

    def changelist_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().changelist_view(request, *args, **kwargs)  # type: ignore[misc]
        except REFUSALS as exc:
            return self._refused(request, exc)
