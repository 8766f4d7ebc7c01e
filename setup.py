"""Build hook: ship ``cogvis_tasks_evalscope.pth`` at the site-packages root.

A ``.pth`` file is the only way to make the stock ``evalscope`` command load our
benchmarks (evalscope has no plugin mechanism); everything else is in setup.cfg.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "cogvis_tasks_evalscope.pth"


class BuildPyWithPth(build_py):
    def run(self) -> None:
        super().run()
        self.copy_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), PTH), os.path.join(self.build_lib, PTH))

    def get_outputs(self, include_bytecode: bool = True):
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": BuildPyWithPth})
