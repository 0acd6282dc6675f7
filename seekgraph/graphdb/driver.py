"""Opening a driver with errors a user can act on. Only the CLI (and test fixtures) call this."""

from __future__ import annotations

import neo4j
from neo4j.exceptions import AuthError, ConfigurationError, Neo4jError, ServiceUnavailable

from seekgraph.graphdb.errors import ConnectionFailedError
from seekgraph.graphdb.settings import ConnectionSettings

RATE_LIMITED = "Neo.ClientError.Security.AuthenticationRateLimit"


def open_driver(settings: ConnectionSettings, *, verify: bool = True) -> neo4j.Driver:
    """Create a driver for `settings` and, by default, check that the server answers."""
    try:
        driver = neo4j.GraphDatabase.driver(
            settings.uri,
            auth=(settings.username, settings.password),
            # a lost server (killed, restarted) fails a stage after this long, with one line
            max_transaction_retry_time=settings.retry_seconds,
            # "label/property does not exist yet" warnings are normal on a fresh graph.
            notifications_disabled_classifications=[
                neo4j.NotificationDisabledClassification.UNRECOGNIZED
            ],
        )
    except (ValueError, ConfigurationError) as e:
        raise ConnectionFailedError(f"invalid Neo4j URI {settings.uri!r}: {e}") from e
    if verify:
        try:
            driver.verify_connectivity()
        except Neo4jError as e:
            driver.close()
            if e.code != RATE_LIMITED and not isinstance(e, AuthError):
                raise
            if e.code == RATE_LIMITED:  # not an AuthError: Neo4j sends it as a ClientError
                raise ConnectionFailedError(
                    f"Neo4j at {settings.uri} refuses logins for a while after several wrong "
                    "passwords",
                    hint="wait a few seconds, then retry with the right password "
                    "(`seekgraph db password`)",
                ) from e
            hint = (
                (
                    " (the managed server's password is in its password file; "
                    "run `seekgraph db status`)"
                )
                if settings.managed
                else ""
            )
            raise ConnectionFailedError(
                f"Neo4j at {settings.uri} refused user {settings.username!r}: wrong password{hint}"
            ) from e
        except (ServiceUnavailable, OSError) as e:
            driver.close()
            hint = " (start it with `seekgraph db start`)" if settings.managed else ""
            raise ConnectionFailedError(f"no Neo4j answers at {settings.uri}{hint}: {e}") from e
    return driver
