"""The user admin: Django's, with a rename refused when another account has the name in any
case. Django's add form already compares names without case; its change form does not, so
this one asks ``username_check_free`` (the rule behind the director's screens too) and shows
its refusal on the name field. The database's index refuses what gets past both.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm

from tournaments.common.errors import ApplicationError
from tournaments.common.usernames import username_check_free


class UserEditForm(UserChangeForm):
    def clean_username(self) -> Any:
        username = self.cleaned_data.get("username")
        if username:
            try:
                username_check_free(username, other_than=self.instance)
            except ApplicationError as exc:
                self.add_error("username", exc.message)
        return username


class CaseInsensitiveUserAdmin(UserAdmin):
    form = UserEditForm


User = get_user_model()
admin.site.unregister(User)
admin.site.register(User, CaseInsensitiveUserAdmin)
