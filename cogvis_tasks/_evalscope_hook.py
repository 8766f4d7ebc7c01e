"""Load ``cogvis_tasks.evalscope`` right after ``evalscope`` is imported.

evalscope has no plugin mechanism, so the package installs a one-line ``.pth``
file that imports this module at interpreter start. It must stay cheap for the
many interpreters that never touch evalscope: it imports only the standard
library and adds a one-shot meta-path finder; nothing else happens until
something imports ``evalscope``. Off switch: ``COGVIS_EVALSCOPE_HOOK=0``.
"""

from __future__ import annotations

import importlib
import os
import sys

PLUGIN = "cogvis_tasks.evalscope"
OFF_SWITCH = "COGVIS_EVALSCOPE_HOOK"


def _load_plugin() -> None:
    try:
        importlib.import_module(PLUGIN)
    except Exception as exc:  # never break evalscope itself; say why our benchmarks are missing
        print(f"[cogvis_tasks] evalscope plugin not loaded: {exc!r}", file=sys.stderr)


class _Loader:
    """Wraps evalscope's own loader and loads the plugin once evalscope is fully imported.

    Duck-typed (no importlib.abc base): importing importlib.abc alone would cost
    every interpreter start tens of milliseconds.
    """

    def __init__(self, inner: importlib.abc.Loader) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> object:
        return self._inner.create_module(spec)

    def exec_module(self, module: object) -> None:
        self._inner.exec_module(module)
        _load_plugin()


class _Finder:
    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name != "evalscope":
            return None
        import importlib.util

        sys.meta_path.remove(self)  # one shot; find the real spec without us
        spec = importlib.util.find_spec("evalscope")
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    if os.environ.get(OFF_SWITCH, "1").strip().lower() in ("0", "false", "no", "off"):
        return
    if "evalscope" in sys.modules:
        _load_plugin()
        return
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


install()
