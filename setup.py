"""Build hook: ship ``cogvis_tasks_evalscope.pth`` at the site-packages root, in regular and editable installs.

A ``.pth`` file is the only way to make the stock ``evalscope`` command load our
benchmarks (evalscope has no plugin mechanism); everything else is in setup.cfg.
A regular wheel gets the file from ``build_lib``. For an editable install
(``pip install -e .``) setuptools writes whatever lands in the unpacked wheel, which
is where it points ``install_lib`` while it builds; the package itself stays in the
checkout, so the hook imports the checkout's code.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "cogvis_tasks_evalscope.pth"
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), PTH)


class BuildPyWithPth(build_py):
    def run(self) -> None:
        super().run()
        self.copy_file(SOURCE, os.path.join(self.build_lib, PTH))
        if getattr(self, "editable_mode", False):
            unpacked_wheel = self.distribution.get_command_obj("install").install_lib
            if unpacked_wheel:
                self.mkpath(unpacked_wheel)
                self.copy_file(SOURCE, os.path.join(unpacked_wheel, PTH))

    def get_outputs(self, include_bytecode: bool = True):
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": BuildPyWithPth})
