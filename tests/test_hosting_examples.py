"""The systemd unit and the nginx site of docs/hosting.md, as written there, are valid for the tools that read them.

``make test`` installs nginx (Debian's ``nginx-light``) when missing; systemd's ``systemd-analyze`` comes with the
system. The unit's ``ExecStart`` is pointed at this environment's ``cardtable`` and the site's certificate at a
throwaway one; nothing else is changed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "hosting.md"


def block(first_line: str) -> str:
    """The fenced code block of docs/hosting.md whose first line is ``first_line``."""
    for match in re.finditer(r"```[a-z]*\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S):
        if match.group(1).startswith(first_line + "\n"):
            return match.group(1)
    raise AssertionError(f"docs/hosting.md has no block starting {first_line!r}")


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    unit = block("# /etc/systemd/system/cardtable.service")
    script = Path(sys.executable).parent / "cardtable"
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable serve" in unit
    path = tmp_path / "cardtable.service"
    path.write_text(unit.replace("/opt/cardtable/venv/bin/cardtable", str(script)), encoding="utf-8")
    tool = shutil.which("systemd-analyze")
    assert tool is not None, "systemd-analyze is missing (Debian's systemd package)"
    done = subprocess.run([tool, "verify", str(path)], capture_output=True, text=True, timeout=120)
    problems = [line for line in (done.stdout + done.stderr).splitlines() if "cardtable.service" in line]
    assert done.returncode == 0 and problems == [], done.stdout + done.stderr


def test_the_systemd_unit_runs_what_it_names() -> None:
    """The variables it sets are ones ``serve`` reads (systemd does not know them: a typo would pass verify)."""
    from cardtable.server.settings import CONFIG_ENV, ServeSettings

    known = {CONFIG_ENV} | {f"CARDTABLE_{name.upper()}" for name in ServeSettings.model_fields}
    unit = block("# /etc/systemd/system/cardtable.service")
    variables = [line.split("=", 2)[1] for line in unit.splitlines() if line.startswith("Environment=")]
    assert variables and set(variables) <= known, variables


def test_the_nginx_site_passes_nginx_t(tmp_path: Path) -> None:
    site = block("# /etc/nginx/sites-available/cardtable")
    certificate, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=cards.example.org", "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True, timeout=120)
    site = site.replace("/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(certificate))
    site = site.replace("/etc/letsencrypt/live/cards.example.org/privkey.pem", str(key))
    site = site.replace("/var/log/nginx/cardtable.log", str(tmp_path / "access.log"))
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\nevents {{}}\n"
        f"http {{\n    access_log off;\n    include {tmp_path / 'site.conf'};\n}}\n", encoding="utf-8")
    tool = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(tool).exists(), "nginx is missing (Debian's nginx-light; make test installs it)"
    done = subprocess.run([tool, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr
