"""The web server: lobby and table pages, REST API and one WebSocket per table (FastAPI + uvicorn)."""

from cardtable.server.app import create_app

__all__ = ["create_app"]
