"""A Python program that launches its own kernel: CPU-side imports and code around it."""

import json
import sys
from dataclasses import dataclass

import numpy as np
import spirthon
from spirthon import Array, f32, global_id, kernel, set_device, zeros

SCALE: f32 = 0.5


@dataclass
class Settings:
    n: int = 16


@kernel
def halve(x: Array[f32]):
    i = global_id().x
    x[i] = x[i] * SCALE


def main():
    s = Settings()
    x = np.arange(s.n, dtype=np.float32)
    halve.launch(s.n, x)
    print(json.dumps({"sum": float(x.sum()), "device": spirthon.device()}), file=sys.stdout)


if __name__ == "__main__":
    main()
