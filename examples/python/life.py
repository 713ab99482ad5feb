"""Conway's Game of Life on the GPU, written to life.png (a glider gun after N generations).

    python3 examples/python/life.py [generations]

The board wraps around; two device arrays are swapped every generation, and the rule is a
constant tuple indexed by the neighbour count.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array2D, global_id, i32, kernel

from png import write_png

# The next state of a live and of a dead cell, by neighbour count.
SURVIVE = (0, 0, 1, 1, 0, 0, 0, 0, 0)
BORN = (0, 0, 0, 1, 0, 0, 0, 0, 0)


@kernel(workgroup_size=(16, 16))
def generation(board: Array2D[i32], out: Array2D[i32]):
    x, y, _ = global_id()
    h, w = board.shape
    n = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            if dx != 0 or dy != 0:
                n += board[(y + dy) % h, (x + dx) % w]
    if board[y, x] == 1:
        out[y, x] = SURVIVE[n]
    else:
        out[y, x] = BORN[n]


GUN = """
........................O...........
......................O.O...........
............OO......OO............OO
...........O...O....OO............OO
OO........O.....O...OO..............
OO........O...O.OO....O.O...........
..........O.....O.......O...........
...........O...O....................
............OO......................
"""


def board(h, w):
    cells = np.zeros((h, w), dtype=np.int32)
    rows = GUN.strip().splitlines()
    for r, line in enumerate(rows):
        cells[10 + r, 10:10 + len(line)] = [c == "O" for c in line]
    return cells


def run(generations, h=128, w=192):
    a = spirthon.array(board(h, w))
    b = spirthon.zeros((h, w), np.int32)
    for _ in range(generations):
        generation.launch((w, h), a, b)
        a, b = b, a
    return a.numpy()


if __name__ == "__main__":
    gens = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    cells = run(gens)
    image = np.kron(np.where(cells == 1, 255, 24).astype(np.uint8), np.ones((4, 4), dtype=np.uint8))
    write_png("life.png", image)
    print("%d generations on %s: %d live cells; wrote life.png" % (gens, spirthon.device(), int(cells.sum())))
