"""Referee API v1 under /api/v1/."""

from django.urls import path

from referee.api import views

app_name = "api-v1"

urlpatterns = [
    path("me/", views.MeApi.as_view(), name="me"),
    path("assignments/", views.AssignmentListApi.as_view(), name="assignments"),
    path("tables/<id:table_id>/", views.TableApi.as_view(), name="table"),
    path("tables/<id:table_id>/hands/", views.HandStartApi.as_view(), name="hand-start"),
    path("hands/<id:hand_id>/", views.HandDetailApi.as_view(), name="hand"),
    path("hands/<id:hand_id>/audit/", views.HandAuditApi.as_view(), name="hand-audit"),
    path("hands/<id:hand_id>/actions/", views.HandActionApi.as_view(), name="hand-action"),
    path(
        "hands/<id:hand_id>/announcements/",
        views.HandAnnouncementApi.as_view(),
        name="hand-announcement",
    ),
    path("hands/<id:hand_id>/wild/", views.HandWildApi.as_view(), name="hand-wild"),
    path("hands/<id:hand_id>/undo/", views.HandUndoApi.as_view(), name="hand-undo"),
    path("hands/<id:hand_id>/result/", views.HandResultApi.as_view(), name="hand-result"),
    path(
        "hands/<id:hand_id>/result/preview/",
        views.HandResultPreviewApi.as_view(),
        name="hand-result-preview",
    ),
    path(
        "hands/<id:hand_id>/passed-out/",
        views.HandPassedOutApi.as_view(),
        name="hand-passed-out",
    ),
    path(
        "hands/<id:hand_id>/correction/",
        views.HandCorrectionApi.as_view(),
        name="hand-correction",
    ),
    path("hands/<id:hand_id>/void/", views.HandVoidApi.as_view(), name="hand-void"),
    path("hands/<id:hand_id>/deal/", views.HandDealApi.as_view(), name="hand-deal"),
    path("hands/<id:hand_id>/confirm/", views.HandConfirmApi.as_view(), name="hand-confirm"),
    path("hands/<id:hand_id>/dispute/", views.HandDisputeApi.as_view(), name="hand-dispute"),
    path(
        "tournaments/<slug:slug>/penalties/",
        views.PenaltyCreateApi.as_view(),
        name="penalty-create",
    ),
    path(
        "penalties/<id:penalty_id>/revoke/",
        views.PenaltyRevokeApi.as_view(),
        name="penalty-revoke",
    ),
]
