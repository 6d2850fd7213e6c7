"""Create the "referee" group (role of the people who record hands)."""

from django.db import migrations

REFEREE_GROUP = "referee"


def create_referee_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).get_or_create(name=REFEREE_GROUP)


def delete_referee_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=REFEREE_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tournaments", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_referee_group, delete_referee_group)]
