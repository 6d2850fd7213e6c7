-- Privileges of the application's database role: the single source, applied by
-- `manage.py db_app_role` (after every `migrate`, as the owner role), by the test that proves the
-- refusals (tests/security/test_app_role.py) and readable by hand with
--   psql -v app_role=doudizhu_app -f tournaments/common/sql/app_role_grants.sql
-- The application role owns nothing, so it cannot ALTER a table (no DISABLE TRIGGER), and it is
-- not a superuser, so it cannot SET session_replication_role. Idempotent: it starts from nothing.

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM :"app_role";
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM :"app_role";
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
REVOKE CREATE ON SCHEMA public FROM :"app_role";
GRANT USAGE ON SCHEMA public TO :"app_role";

-- Ordinary rows: read and write (never TRUNCATE, REFERENCES or TRIGGER). This includes the
-- cache table django_cache (sign-in counts), made by `createcachetable` before db_app_role runs.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app_role";

-- The hand event log is append-only: read and insert only.
REVOKE UPDATE, DELETE ON tournaments_handevent FROM :"app_role";

-- The schema history belongs to migrations, which run as the owner.
REVOKE INSERT, UPDATE, DELETE ON django_migrations FROM :"app_role";

-- Every number has a trail (migration 0011 enforces the same with triggers, for every role):
-- the round and tournament logs are append-only; a penalty is never deleted and only its
-- revocation columns are ever updated; per-seat result rows are inserted and deleted (rebuilt
-- from their hand), never updated.
REVOKE UPDATE, DELETE ON tournaments_roundlog FROM :"app_role";
REVOKE UPDATE, DELETE ON tournaments_tournamentlog FROM :"app_role";
REVOKE UPDATE, DELETE ON tournaments_penalty FROM :"app_role";
GRANT UPDATE (revoked_at, revoked_by_id, revoke_reason) ON tournaments_penalty TO :"app_role";
REVOKE UPDATE ON tournaments_handseatresult FROM :"app_role";
-- A director's exclusion of a hand (issue 29) is written once, never changed (migration 0024).
REVOKE UPDATE, DELETE ON tournaments_handexclusion FROM :"app_role";
