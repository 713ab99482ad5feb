from spirthon import kernel, Array, i32
@kernel
def k(x: Array[i32]):
    for i0 in range(2):
        for i1 in range(2):
            for i2 in range(2):
                for i3 in range(2):
                    for i4 in range(2):
                        for i5 in range(2):
                            for i6 in range(2):
                                for i7 in range(2):
                                    for i8 in range(2):
                                        for i9 in range(2):
                                            for i10 in range(2):
                                                for i11 in range(2):
                                                    for i12 in range(2):
                                                        for i13 in range(2):
                                                            for i14 in range(2):
                                                                for i15 in range(2):
                                                                    for i16 in range(2):
                                                                        for i17 in range(2):
                                                                            for i18 in range(2):
                                                                                for i19 in range(2):
                                                                                    for i20 in range(2):
                                                                                        x[0] += 1
