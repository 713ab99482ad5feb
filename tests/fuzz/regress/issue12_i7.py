from spirthon import kernel, Array, i32, global_id
@kernel
def k(x: Array[i32]):
    i = global_id().x
    v = x[i]
    if v == 0:
        x[i] = 0
    elif v == 1:
        x[i] = 3
    elif v == 2:
        x[i] = 6
    elif v == 3:
        x[i] = 9
    elif v == 4:
        x[i] = 12
    elif v == 5:
        x[i] = 15
    elif v == 6:
        x[i] = 18
    elif v == 7:
        x[i] = 21
    elif v == 8:
        x[i] = 24
    elif v == 9:
        x[i] = 27
    elif v == 10:
        x[i] = 30
    elif v == 11:
        x[i] = 33
    elif v == 12:
        x[i] = 36
    elif v == 13:
        x[i] = 39
    elif v == 14:
        x[i] = 42
    elif v == 15:
        x[i] = 45
    elif v == 16:
        x[i] = 48
    elif v == 17:
        x[i] = 51
    elif v == 18:
        x[i] = 54
    elif v == 19:
        x[i] = 57
    elif v == 20:
        x[i] = 60
    elif v == 21:
        x[i] = 63
    elif v == 22:
        x[i] = 66
    elif v == 23:
        x[i] = 69
    elif v == 24:
        x[i] = 72
    elif v == 25:
        x[i] = 75
    elif v == 26:
        x[i] = 78
    elif v == 27:
        x[i] = 81
    elif v == 28:
        x[i] = 84
    elif v == 29:
        x[i] = 87
    elif v == 30:
        x[i] = 90
    elif v == 31:
        x[i] = 93
    elif v == 32:
        x[i] = 96
    elif v == 33:
        x[i] = 99
    elif v == 34:
        x[i] = 102
    elif v == 35:
        x[i] = 105
    elif v == 36:
        x[i] = 108
    elif v == 37:
        x[i] = 111
    elif v == 38:
        x[i] = 114
    elif v == 39:
        x[i] = 117
    elif v == 40:
        x[i] = 120
    elif v == 41:
        x[i] = 123
    elif v == 42:
        x[i] = 126
    elif v == 43:
        x[i] = 129
    elif v == 44:
        x[i] = 132
    elif v == 45:
        x[i] = 135
    elif v == 46:
        x[i] = 138
    elif v == 47:
        x[i] = 141
    elif v == 48:
        x[i] = 144
    elif v == 49:
        x[i] = 147
    elif v == 50:
        x[i] = 150
    elif v == 51:
        x[i] = 153
    elif v == 52:
        x[i] = 156
    elif v == 53:
        x[i] = 159
    elif v == 54:
        x[i] = 162
    elif v == 55:
        x[i] = 165
    elif v == 56:
        x[i] = 168
    elif v == 57:
        x[i] = 171
    elif v == 58:
        x[i] = 174
    elif v == 59:
        x[i] = 177
    elif v == 60:
        x[i] = 180
    elif v == 61:
        x[i] = 183
    elif v == 62:
        x[i] = 186
    elif v == 63:
        x[i] = 189
    elif v == 64:
        x[i] = 192
    elif v == 65:
        x[i] = 195
    elif v == 66:
        x[i] = 198
    elif v == 67:
        x[i] = 201
    elif v == 68:
        x[i] = 204
    elif v == 69:
        x[i] = 207
    elif v == 70:
        x[i] = 210
    elif v == 71:
        x[i] = 213
    elif v == 72:
        x[i] = 216
    elif v == 73:
        x[i] = 219
    elif v == 74:
        x[i] = 222
    elif v == 75:
        x[i] = 225
    elif v == 76:
        x[i] = 228
    elif v == 77:
        x[i] = 231
    elif v == 78:
        x[i] = 234
    elif v == 79:
        x[i] = 237
    elif v == 80:
        x[i] = 240
    elif v == 81:
        x[i] = 243
    elif v == 82:
        x[i] = 246
    elif v == 83:
        x[i] = 249
    elif v == 84:
        x[i] = 252
    elif v == 85:
        x[i] = 255
    elif v == 86:
        x[i] = 258
    elif v == 87:
        x[i] = 261
    elif v == 88:
        x[i] = 264
    elif v == 89:
        x[i] = 267
    elif v == 90:
        x[i] = 270
    elif v == 91:
        x[i] = 273
    elif v == 92:
        x[i] = 276
    elif v == 93:
        x[i] = 279
    elif v == 94:
        x[i] = 282
    elif v == 95:
        x[i] = 285
    elif v == 96:
        x[i] = 288
    elif v == 97:
        x[i] = 291
    elif v == 98:
        x[i] = 294
    elif v == 99:
        x[i] = 297
    elif v == 100:
        x[i] = 300
    elif v == 101:
        x[i] = 303
    elif v == 102:
        x[i] = 306
    elif v == 103:
        x[i] = 309
    elif v == 104:
        x[i] = 312
    elif v == 105:
        x[i] = 315
    elif v == 106:
        x[i] = 318
    elif v == 107:
        x[i] = 321
    elif v == 108:
        x[i] = 324
    elif v == 109:
        x[i] = 327
    elif v == 110:
        x[i] = 330
    elif v == 111:
        x[i] = 333
    elif v == 112:
        x[i] = 336
    elif v == 113:
        x[i] = 339
    elif v == 114:
        x[i] = 342
    elif v == 115:
        x[i] = 345
    elif v == 116:
        x[i] = 348
    elif v == 117:
        x[i] = 351
    elif v == 118:
        x[i] = 354
    elif v == 119:
        x[i] = 357
    elif v == 120:
        x[i] = 360
    elif v == 121:
        x[i] = 363
    elif v == 122:
        x[i] = 366
    elif v == 123:
        x[i] = 369
    elif v == 124:
        x[i] = 372
    elif v == 125:
        x[i] = 375
    elif v == 126:
        x[i] = 378
    elif v == 127:
        x[i] = 381
    elif v == 128:
        x[i] = 384
    elif v == 129:
        x[i] = 387
    elif v == 130:
        x[i] = 390
    elif v == 131:
        x[i] = 393
    elif v == 132:
        x[i] = 396
    elif v == 133:
        x[i] = 399
    elif v == 134:
        x[i] = 402
    elif v == 135:
        x[i] = 405
    elif v == 136:
        x[i] = 408
    elif v == 137:
        x[i] = 411
    elif v == 138:
        x[i] = 414
    elif v == 139:
        x[i] = 417
    elif v == 140:
        x[i] = 420
    elif v == 141:
        x[i] = 423
    elif v == 142:
        x[i] = 426
    elif v == 143:
        x[i] = 429
    elif v == 144:
        x[i] = 432
    elif v == 145:
        x[i] = 435
    elif v == 146:
        x[i] = 438
    elif v == 147:
        x[i] = 441
    elif v == 148:
        x[i] = 444
    elif v == 149:
        x[i] = 447
    elif v == 150:
        x[i] = 450
    elif v == 151:
        x[i] = 453
    elif v == 152:
        x[i] = 456
    elif v == 153:
        x[i] = 459
    elif v == 154:
        x[i] = 462
    elif v == 155:
        x[i] = 465
    elif v == 156:
        x[i] = 468
    elif v == 157:
        x[i] = 471
    elif v == 158:
        x[i] = 474
    elif v == 159:
        x[i] = 477
    elif v == 160:
        x[i] = 480
    elif v == 161:
        x[i] = 483
    elif v == 162:
        x[i] = 486
    elif v == 163:
        x[i] = 489
    elif v == 164:
        x[i] = 492
    elif v == 165:
        x[i] = 495
    elif v == 166:
        x[i] = 498
    elif v == 167:
        x[i] = 501
    elif v == 168:
        x[i] = 504
    elif v == 169:
        x[i] = 507
    elif v == 170:
        x[i] = 510
    elif v == 171:
        x[i] = 513
    elif v == 172:
        x[i] = 516
    elif v == 173:
        x[i] = 519
    elif v == 174:
        x[i] = 522
    elif v == 175:
        x[i] = 525
    elif v == 176:
        x[i] = 528
    elif v == 177:
        x[i] = 531
    elif v == 178:
        x[i] = 534
    elif v == 179:
        x[i] = 537
    elif v == 180:
        x[i] = 540
    elif v == 181:
        x[i] = 543
    elif v == 182:
        x[i] = 546
    elif v == 183:
        x[i] = 549
    elif v == 184:
        x[i] = 552
    elif v == 185:
        x[i] = 555
    elif v == 186:
        x[i] = 558
    elif v == 187:
        x[i] = 561
    elif v == 188:
        x[i] = 564
    elif v == 189:
        x[i] = 567
    elif v == 190:
        x[i] = 570
    elif v == 191:
        x[i] = 573
    elif v == 192:
        x[i] = 576
    elif v == 193:
        x[i] = 579
    elif v == 194:
        x[i] = 582
    elif v == 195:
        x[i] = 585
    elif v == 196:
        x[i] = 588
    elif v == 197:
        x[i] = 591
    elif v == 198:
        x[i] = 594
    elif v == 199:
        x[i] = 597
    elif v == 200:
        x[i] = 600
    elif v == 201:
        x[i] = 603
    elif v == 202:
        x[i] = 606
    elif v == 203:
        x[i] = 609
    elif v == 204:
        x[i] = 612
    elif v == 205:
        x[i] = 615
    elif v == 206:
        x[i] = 618
    elif v == 207:
        x[i] = 621
    elif v == 208:
        x[i] = 624
    elif v == 209:
        x[i] = 627
    elif v == 210:
        x[i] = 630
    elif v == 211:
        x[i] = 633
    elif v == 212:
        x[i] = 636
    elif v == 213:
        x[i] = 639
    elif v == 214:
        x[i] = 642
    elif v == 215:
        x[i] = 645
    elif v == 216:
        x[i] = 648
    elif v == 217:
        x[i] = 651
    elif v == 218:
        x[i] = 654
    elif v == 219:
        x[i] = 657
    elif v == 220:
        x[i] = 660
    elif v == 221:
        x[i] = 663
    elif v == 222:
        x[i] = 666
    elif v == 223:
        x[i] = 669
    elif v == 224:
        x[i] = 672
    elif v == 225:
        x[i] = 675
    elif v == 226:
        x[i] = 678
    elif v == 227:
        x[i] = 681
    elif v == 228:
        x[i] = 684
    elif v == 229:
        x[i] = 687
    elif v == 230:
        x[i] = 690
    elif v == 231:
        x[i] = 693
    elif v == 232:
        x[i] = 696
    elif v == 233:
        x[i] = 699
    elif v == 234:
        x[i] = 702
    elif v == 235:
        x[i] = 705
    elif v == 236:
        x[i] = 708
    elif v == 237:
        x[i] = 711
    elif v == 238:
        x[i] = 714
    elif v == 239:
        x[i] = 717
    elif v == 240:
        x[i] = 720
    elif v == 241:
        x[i] = 723
    elif v == 242:
        x[i] = 726
    elif v == 243:
        x[i] = 729
    elif v == 244:
        x[i] = 732
    elif v == 245:
        x[i] = 735
    elif v == 246:
        x[i] = 738
    elif v == 247:
        x[i] = 741
    elif v == 248:
        x[i] = 744
    elif v == 249:
        x[i] = 747
    elif v == 250:
        x[i] = 750
    elif v == 251:
        x[i] = 753
    elif v == 252:
        x[i] = 756
    elif v == 253:
        x[i] = 759
    elif v == 254:
        x[i] = 762
    elif v == 255:
        x[i] = 765
    elif v == 256:
        x[i] = 768
    elif v == 257:
        x[i] = 771
    elif v == 258:
        x[i] = 774
    elif v == 259:
        x[i] = 777
    elif v == 260:
        x[i] = 780
    elif v == 261:
        x[i] = 783
    elif v == 262:
        x[i] = 786
    elif v == 263:
        x[i] = 789
    elif v == 264:
        x[i] = 792
    elif v == 265:
        x[i] = 795
    elif v == 266:
        x[i] = 798
    elif v == 267:
        x[i] = 801
    elif v == 268:
        x[i] = 804
    elif v == 269:
        x[i] = 807
    elif v == 270:
        x[i] = 810
    elif v == 271:
        x[i] = 813
    elif v == 272:
        x[i] = 816
    elif v == 273:
        x[i] = 819
    elif v == 274:
        x[i] = 822
    elif v == 275:
        x[i] = 825
    elif v == 276:
        x[i] = 828
    elif v == 277:
        x[i] = 831
    elif v == 278:
        x[i] = 834
    elif v == 279:
        x[i] = 837
    elif v == 280:
        x[i] = 840
    elif v == 281:
        x[i] = 843
    elif v == 282:
        x[i] = 846
    elif v == 283:
        x[i] = 849
    elif v == 284:
        x[i] = 852
    elif v == 285:
        x[i] = 855
    elif v == 286:
        x[i] = 858
    elif v == 287:
        x[i] = 861
    elif v == 288:
        x[i] = 864
    elif v == 289:
        x[i] = 867
    elif v == 290:
        x[i] = 870
    elif v == 291:
        x[i] = 873
    elif v == 292:
        x[i] = 876
    elif v == 293:
        x[i] = 879
    elif v == 294:
        x[i] = 882
    elif v == 295:
        x[i] = 885
    elif v == 296:
        x[i] = 888
    elif v == 297:
        x[i] = 891
    elif v == 298:
        x[i] = 894
    elif v == 299:
        x[i] = 897
    elif v == 300:
        x[i] = 900
    elif v == 301:
        x[i] = 903
    elif v == 302:
        x[i] = 906
    elif v == 303:
        x[i] = 909
    elif v == 304:
        x[i] = 912
    elif v == 305:
        x[i] = 915
    elif v == 306:
        x[i] = 918
    elif v == 307:
        x[i] = 921
    elif v == 308:
        x[i] = 924
    elif v == 309:
        x[i] = 927
    elif v == 310:
        x[i] = 930
    elif v == 311:
        x[i] = 933
    elif v == 312:
        x[i] = 936
    elif v == 313:
        x[i] = 939
    elif v == 314:
        x[i] = 942
    elif v == 315:
        x[i] = 945
    elif v == 316:
        x[i] = 948
    elif v == 317:
        x[i] = 951
    elif v == 318:
        x[i] = 954
    elif v == 319:
        x[i] = 957
    elif v == 320:
        x[i] = 960
    elif v == 321:
        x[i] = 963
    elif v == 322:
        x[i] = 966
    elif v == 323:
        x[i] = 969
    elif v == 324:
        x[i] = 972
    elif v == 325:
        x[i] = 975
    elif v == 326:
        x[i] = 978
    elif v == 327:
        x[i] = 981
    elif v == 328:
        x[i] = 984
    elif v == 329:
        x[i] = 987
    elif v == 330:
        x[i] = 990
    elif v == 331:
        x[i] = 993
    elif v == 332:
        x[i] = 996
    elif v == 333:
        x[i] = 999
    elif v == 334:
        x[i] = 1002
    elif v == 335:
        x[i] = 1005
    elif v == 336:
        x[i] = 1008
    elif v == 337:
        x[i] = 1011
    elif v == 338:
        x[i] = 1014
    elif v == 339:
        x[i] = 1017
    elif v == 340:
        x[i] = 1020
    elif v == 341:
        x[i] = 1023
    elif v == 342:
        x[i] = 1026
    elif v == 343:
        x[i] = 1029
    elif v == 344:
        x[i] = 1032
    elif v == 345:
        x[i] = 1035
    elif v == 346:
        x[i] = 1038
    elif v == 347:
        x[i] = 1041
    elif v == 348:
        x[i] = 1044
    elif v == 349:
        x[i] = 1047
    elif v == 350:
        x[i] = 1050
    elif v == 351:
        x[i] = 1053
    elif v == 352:
        x[i] = 1056
    elif v == 353:
        x[i] = 1059
    elif v == 354:
        x[i] = 1062
    elif v == 355:
        x[i] = 1065
    elif v == 356:
        x[i] = 1068
    elif v == 357:
        x[i] = 1071
    elif v == 358:
        x[i] = 1074
    elif v == 359:
        x[i] = 1077
    elif v == 360:
        x[i] = 1080
    elif v == 361:
        x[i] = 1083
    elif v == 362:
        x[i] = 1086
    elif v == 363:
        x[i] = 1089
    elif v == 364:
        x[i] = 1092
    elif v == 365:
        x[i] = 1095
    elif v == 366:
        x[i] = 1098
    elif v == 367:
        x[i] = 1101
    elif v == 368:
        x[i] = 1104
    elif v == 369:
        x[i] = 1107
    elif v == 370:
        x[i] = 1110
    elif v == 371:
        x[i] = 1113
    elif v == 372:
        x[i] = 1116
    elif v == 373:
        x[i] = 1119
    elif v == 374:
        x[i] = 1122
    elif v == 375:
        x[i] = 1125
    elif v == 376:
        x[i] = 1128
    elif v == 377:
        x[i] = 1131
    elif v == 378:
        x[i] = 1134
    elif v == 379:
        x[i] = 1137
    elif v == 380:
        x[i] = 1140
    elif v == 381:
        x[i] = 1143
    elif v == 382:
        x[i] = 1146
    elif v == 383:
        x[i] = 1149
    elif v == 384:
        x[i] = 1152
    elif v == 385:
        x[i] = 1155
    elif v == 386:
        x[i] = 1158
    elif v == 387:
        x[i] = 1161
    elif v == 388:
        x[i] = 1164
    elif v == 389:
        x[i] = 1167
    elif v == 390:
        x[i] = 1170
    elif v == 391:
        x[i] = 1173
    elif v == 392:
        x[i] = 1176
    elif v == 393:
        x[i] = 1179
    elif v == 394:
        x[i] = 1182
    elif v == 395:
        x[i] = 1185
    elif v == 396:
        x[i] = 1188
    elif v == 397:
        x[i] = 1191
    elif v == 398:
        x[i] = 1194
    elif v == 399:
        x[i] = 1197
    elif v == 400:
        x[i] = 1200
    elif v == 401:
        x[i] = 1203
    elif v == 402:
        x[i] = 1206
    elif v == 403:
        x[i] = 1209
    elif v == 404:
        x[i] = 1212
    elif v == 405:
        x[i] = 1215
    elif v == 406:
        x[i] = 1218
    elif v == 407:
        x[i] = 1221
    elif v == 408:
        x[i] = 1224
    elif v == 409:
        x[i] = 1227
    elif v == 410:
        x[i] = 1230
    elif v == 411:
        x[i] = 1233
    elif v == 412:
        x[i] = 1236
    elif v == 413:
        x[i] = 1239
    elif v == 414:
        x[i] = 1242
    elif v == 415:
        x[i] = 1245
    elif v == 416:
        x[i] = 1248
    elif v == 417:
        x[i] = 1251
    elif v == 418:
        x[i] = 1254
    elif v == 419:
        x[i] = 1257
    elif v == 420:
        x[i] = 1260
    elif v == 421:
        x[i] = 1263
    elif v == 422:
        x[i] = 1266
    elif v == 423:
        x[i] = 1269
    elif v == 424:
        x[i] = 1272
    elif v == 425:
        x[i] = 1275
    elif v == 426:
        x[i] = 1278
    elif v == 427:
        x[i] = 1281
    elif v == 428:
        x[i] = 1284
    elif v == 429:
        x[i] = 1287
    elif v == 430:
        x[i] = 1290
    elif v == 431:
        x[i] = 1293
    elif v == 432:
        x[i] = 1296
    elif v == 433:
        x[i] = 1299
    elif v == 434:
        x[i] = 1302
    elif v == 435:
        x[i] = 1305
    elif v == 436:
        x[i] = 1308
    elif v == 437:
        x[i] = 1311
    elif v == 438:
        x[i] = 1314
    elif v == 439:
        x[i] = 1317
    elif v == 440:
        x[i] = 1320
    elif v == 441:
        x[i] = 1323
    elif v == 442:
        x[i] = 1326
    elif v == 443:
        x[i] = 1329
    elif v == 444:
        x[i] = 1332
    elif v == 445:
        x[i] = 1335
    elif v == 446:
        x[i] = 1338
    elif v == 447:
        x[i] = 1341
    elif v == 448:
        x[i] = 1344
    elif v == 449:
        x[i] = 1347
    elif v == 450:
        x[i] = 1350
    elif v == 451:
        x[i] = 1353
    elif v == 452:
        x[i] = 1356
    elif v == 453:
        x[i] = 1359
    elif v == 454:
        x[i] = 1362
    elif v == 455:
        x[i] = 1365
    elif v == 456:
        x[i] = 1368
    elif v == 457:
        x[i] = 1371
    elif v == 458:
        x[i] = 1374
    elif v == 459:
        x[i] = 1377
    elif v == 460:
        x[i] = 1380
    elif v == 461:
        x[i] = 1383
    elif v == 462:
        x[i] = 1386
    elif v == 463:
        x[i] = 1389
    elif v == 464:
        x[i] = 1392
    elif v == 465:
        x[i] = 1395
    elif v == 466:
        x[i] = 1398
    elif v == 467:
        x[i] = 1401
    elif v == 468:
        x[i] = 1404
    elif v == 469:
        x[i] = 1407
    elif v == 470:
        x[i] = 1410
    elif v == 471:
        x[i] = 1413
    elif v == 472:
        x[i] = 1416
    elif v == 473:
        x[i] = 1419
    elif v == 474:
        x[i] = 1422
    elif v == 475:
        x[i] = 1425
    elif v == 476:
        x[i] = 1428
    elif v == 477:
        x[i] = 1431
    elif v == 478:
        x[i] = 1434
    elif v == 479:
        x[i] = 1437
    elif v == 480:
        x[i] = 1440
    elif v == 481:
        x[i] = 1443
    elif v == 482:
        x[i] = 1446
    elif v == 483:
        x[i] = 1449
    elif v == 484:
        x[i] = 1452
    elif v == 485:
        x[i] = 1455
    elif v == 486:
        x[i] = 1458
    elif v == 487:
        x[i] = 1461
    elif v == 488:
        x[i] = 1464
    elif v == 489:
        x[i] = 1467
    elif v == 490:
        x[i] = 1470
    elif v == 491:
        x[i] = 1473
    elif v == 492:
        x[i] = 1476
    elif v == 493:
        x[i] = 1479
    elif v == 494:
        x[i] = 1482
    elif v == 495:
        x[i] = 1485
    elif v == 496:
        x[i] = 1488
    elif v == 497:
        x[i] = 1491
    elif v == 498:
        x[i] = 1494
    elif v == 499:
        x[i] = 1497
    elif v == 500:
        x[i] = 1500
    elif v == 501:
        x[i] = 1503
    elif v == 502:
        x[i] = 1506
    elif v == 503:
        x[i] = 1509
    elif v == 504:
        x[i] = 1512
    elif v == 505:
        x[i] = 1515
    elif v == 506:
        x[i] = 1518
    elif v == 507:
        x[i] = 1521
    elif v == 508:
        x[i] = 1524
    elif v == 509:
        x[i] = 1527
    elif v == 510:
        x[i] = 1530
    elif v == 511:
        x[i] = 1533
    elif v == 512:
        x[i] = 1536
    elif v == 513:
        x[i] = 1539
    elif v == 514:
        x[i] = 1542
    elif v == 515:
        x[i] = 1545
    elif v == 516:
        x[i] = 1548
    elif v == 517:
        x[i] = 1551
    elif v == 518:
        x[i] = 1554
    elif v == 519:
        x[i] = 1557
    elif v == 520:
        x[i] = 1560
    elif v == 521:
        x[i] = 1563
    elif v == 522:
        x[i] = 1566
    elif v == 523:
        x[i] = 1569
    elif v == 524:
        x[i] = 1572
    elif v == 525:
        x[i] = 1575
    elif v == 526:
        x[i] = 1578
    elif v == 527:
        x[i] = 1581
    elif v == 528:
        x[i] = 1584
    elif v == 529:
        x[i] = 1587
    elif v == 530:
        x[i] = 1590
    elif v == 531:
        x[i] = 1593
    elif v == 532:
        x[i] = 1596
    elif v == 533:
        x[i] = 1599
    elif v == 534:
        x[i] = 1602
    elif v == 535:
        x[i] = 1605
    elif v == 536:
        x[i] = 1608
    elif v == 537:
        x[i] = 1611
    elif v == 538:
        x[i] = 1614
    elif v == 539:
        x[i] = 1617
    elif v == 540:
        x[i] = 1620
    elif v == 541:
        x[i] = 1623
    elif v == 542:
        x[i] = 1626
    elif v == 543:
        x[i] = 1629
    elif v == 544:
        x[i] = 1632
    elif v == 545:
        x[i] = 1635
    elif v == 546:
        x[i] = 1638
    elif v == 547:
        x[i] = 1641
    elif v == 548:
        x[i] = 1644
    elif v == 549:
        x[i] = 1647
    elif v == 550:
        x[i] = 1650
    elif v == 551:
        x[i] = 1653
    elif v == 552:
        x[i] = 1656
    elif v == 553:
        x[i] = 1659
    elif v == 554:
        x[i] = 1662
    elif v == 555:
        x[i] = 1665
    elif v == 556:
        x[i] = 1668
    elif v == 557:
        x[i] = 1671
    elif v == 558:
        x[i] = 1674
    elif v == 559:
        x[i] = 1677
    elif v == 560:
        x[i] = 1680
    elif v == 561:
        x[i] = 1683
    elif v == 562:
        x[i] = 1686
    elif v == 563:
        x[i] = 1689
    elif v == 564:
        x[i] = 1692
    elif v == 565:
        x[i] = 1695
    elif v == 566:
        x[i] = 1698
    elif v == 567:
        x[i] = 1701
    elif v == 568:
        x[i] = 1704
    elif v == 569:
        x[i] = 1707
    elif v == 570:
        x[i] = 1710
    elif v == 571:
        x[i] = 1713
    elif v == 572:
        x[i] = 1716
    elif v == 573:
        x[i] = 1719
    elif v == 574:
        x[i] = 1722
    elif v == 575:
        x[i] = 1725
    elif v == 576:
        x[i] = 1728
    elif v == 577:
        x[i] = 1731
    elif v == 578:
        x[i] = 1734
    elif v == 579:
        x[i] = 1737
    elif v == 580:
        x[i] = 1740
    elif v == 581:
        x[i] = 1743
    elif v == 582:
        x[i] = 1746
    elif v == 583:
        x[i] = 1749
    elif v == 584:
        x[i] = 1752
    elif v == 585:
        x[i] = 1755
    elif v == 586:
        x[i] = 1758
    elif v == 587:
        x[i] = 1761
    elif v == 588:
        x[i] = 1764
    elif v == 589:
        x[i] = 1767
    elif v == 590:
        x[i] = 1770
    elif v == 591:
        x[i] = 1773
    elif v == 592:
        x[i] = 1776
    elif v == 593:
        x[i] = 1779
    elif v == 594:
        x[i] = 1782
    elif v == 595:
        x[i] = 1785
    elif v == 596:
        x[i] = 1788
    elif v == 597:
        x[i] = 1791
    elif v == 598:
        x[i] = 1794
    elif v == 599:
        x[i] = 1797
    elif v == 600:
        x[i] = 1800
    elif v == 601:
        x[i] = 1803
    elif v == 602:
        x[i] = 1806
    elif v == 603:
        x[i] = 1809
    elif v == 604:
        x[i] = 1812
    elif v == 605:
        x[i] = 1815
    elif v == 606:
        x[i] = 1818
    elif v == 607:
        x[i] = 1821
    elif v == 608:
        x[i] = 1824
    elif v == 609:
        x[i] = 1827
    elif v == 610:
        x[i] = 1830
    elif v == 611:
        x[i] = 1833
    elif v == 612:
        x[i] = 1836
    elif v == 613:
        x[i] = 1839
    elif v == 614:
        x[i] = 1842
    elif v == 615:
        x[i] = 1845
    elif v == 616:
        x[i] = 1848
    elif v == 617:
        x[i] = 1851
    elif v == 618:
        x[i] = 1854
    elif v == 619:
        x[i] = 1857
    elif v == 620:
        x[i] = 1860
    elif v == 621:
        x[i] = 1863
    elif v == 622:
        x[i] = 1866
    elif v == 623:
        x[i] = 1869
    elif v == 624:
        x[i] = 1872
    elif v == 625:
        x[i] = 1875
    elif v == 626:
        x[i] = 1878
    elif v == 627:
        x[i] = 1881
    elif v == 628:
        x[i] = 1884
    elif v == 629:
        x[i] = 1887
    elif v == 630:
        x[i] = 1890
    elif v == 631:
        x[i] = 1893
    elif v == 632:
        x[i] = 1896
    elif v == 633:
        x[i] = 1899
    elif v == 634:
        x[i] = 1902
    elif v == 635:
        x[i] = 1905
    elif v == 636:
        x[i] = 1908
    elif v == 637:
        x[i] = 1911
    elif v == 638:
        x[i] = 1914
    elif v == 639:
        x[i] = 1917
    elif v == 640:
        x[i] = 1920
    elif v == 641:
        x[i] = 1923
    elif v == 642:
        x[i] = 1926
    elif v == 643:
        x[i] = 1929
    elif v == 644:
        x[i] = 1932
    elif v == 645:
        x[i] = 1935
    elif v == 646:
        x[i] = 1938
    elif v == 647:
        x[i] = 1941
    elif v == 648:
        x[i] = 1944
    elif v == 649:
        x[i] = 1947
    elif v == 650:
        x[i] = 1950
    elif v == 651:
        x[i] = 1953
    elif v == 652:
        x[i] = 1956
    elif v == 653:
        x[i] = 1959
    elif v == 654:
        x[i] = 1962
    elif v == 655:
        x[i] = 1965
    elif v == 656:
        x[i] = 1968
    elif v == 657:
        x[i] = 1971
    elif v == 658:
        x[i] = 1974
    elif v == 659:
        x[i] = 1977
    elif v == 660:
        x[i] = 1980
    elif v == 661:
        x[i] = 1983
    elif v == 662:
        x[i] = 1986
    elif v == 663:
        x[i] = 1989
    elif v == 664:
        x[i] = 1992
    elif v == 665:
        x[i] = 1995
    elif v == 666:
        x[i] = 1998
    elif v == 667:
        x[i] = 2001
    elif v == 668:
        x[i] = 2004
    elif v == 669:
        x[i] = 2007
    elif v == 670:
        x[i] = 2010
    elif v == 671:
        x[i] = 2013
    elif v == 672:
        x[i] = 2016
    elif v == 673:
        x[i] = 2019
    elif v == 674:
        x[i] = 2022
    elif v == 675:
        x[i] = 2025
    elif v == 676:
        x[i] = 2028
    elif v == 677:
        x[i] = 2031
    elif v == 678:
        x[i] = 2034
    elif v == 679:
        x[i] = 2037
    elif v == 680:
        x[i] = 2040
    elif v == 681:
        x[i] = 2043
    elif v == 682:
        x[i] = 2046
    elif v == 683:
        x[i] = 2049
    elif v == 684:
        x[i] = 2052
    elif v == 685:
        x[i] = 2055
    elif v == 686:
        x[i] = 2058
    elif v == 687:
        x[i] = 2061
    elif v == 688:
        x[i] = 2064
    elif v == 689:
        x[i] = 2067
    elif v == 690:
        x[i] = 2070
    elif v == 691:
        x[i] = 2073
    elif v == 692:
        x[i] = 2076
    elif v == 693:
        x[i] = 2079
    elif v == 694:
        x[i] = 2082
    elif v == 695:
        x[i] = 2085
    elif v == 696:
        x[i] = 2088
    elif v == 697:
        x[i] = 2091
    elif v == 698:
        x[i] = 2094
    elif v == 699:
        x[i] = 2097
    elif v == 700:
        x[i] = 2100
    elif v == 701:
        x[i] = 2103
    elif v == 702:
        x[i] = 2106
    elif v == 703:
        x[i] = 2109
    elif v == 704:
        x[i] = 2112
    elif v == 705:
        x[i] = 2115
    elif v == 706:
        x[i] = 2118
    elif v == 707:
        x[i] = 2121
    elif v == 708:
        x[i] = 2124
    elif v == 709:
        x[i] = 2127
    elif v == 710:
        x[i] = 2130
    elif v == 711:
        x[i] = 2133
    elif v == 712:
        x[i] = 2136
    elif v == 713:
        x[i] = 2139
    elif v == 714:
        x[i] = 2142
    elif v == 715:
        x[i] = 2145
    elif v == 716:
        x[i] = 2148
    elif v == 717:
        x[i] = 2151
    elif v == 718:
        x[i] = 2154
    elif v == 719:
        x[i] = 2157
    elif v == 720:
        x[i] = 2160
    elif v == 721:
        x[i] = 2163
    elif v == 722:
        x[i] = 2166
    elif v == 723:
        x[i] = 2169
    elif v == 724:
        x[i] = 2172
    elif v == 725:
        x[i] = 2175
    elif v == 726:
        x[i] = 2178
    elif v == 727:
        x[i] = 2181
    elif v == 728:
        x[i] = 2184
    elif v == 729:
        x[i] = 2187
    elif v == 730:
        x[i] = 2190
    elif v == 731:
        x[i] = 2193
    elif v == 732:
        x[i] = 2196
    elif v == 733:
        x[i] = 2199
    elif v == 734:
        x[i] = 2202
    elif v == 735:
        x[i] = 2205
    elif v == 736:
        x[i] = 2208
    elif v == 737:
        x[i] = 2211
    elif v == 738:
        x[i] = 2214
    elif v == 739:
        x[i] = 2217
    elif v == 740:
        x[i] = 2220
    elif v == 741:
        x[i] = 2223
    elif v == 742:
        x[i] = 2226
    elif v == 743:
        x[i] = 2229
    elif v == 744:
        x[i] = 2232
    elif v == 745:
        x[i] = 2235
    elif v == 746:
        x[i] = 2238
    elif v == 747:
        x[i] = 2241
    elif v == 748:
        x[i] = 2244
    elif v == 749:
        x[i] = 2247
    elif v == 750:
        x[i] = 2250
    elif v == 751:
        x[i] = 2253
    elif v == 752:
        x[i] = 2256
    elif v == 753:
        x[i] = 2259
    elif v == 754:
        x[i] = 2262
    elif v == 755:
        x[i] = 2265
    elif v == 756:
        x[i] = 2268
    elif v == 757:
        x[i] = 2271
    elif v == 758:
        x[i] = 2274
    elif v == 759:
        x[i] = 2277
    elif v == 760:
        x[i] = 2280
    elif v == 761:
        x[i] = 2283
    elif v == 762:
        x[i] = 2286
    elif v == 763:
        x[i] = 2289
    elif v == 764:
        x[i] = 2292
    elif v == 765:
        x[i] = 2295
    elif v == 766:
        x[i] = 2298
    elif v == 767:
        x[i] = 2301
    elif v == 768:
        x[i] = 2304
    elif v == 769:
        x[i] = 2307
    elif v == 770:
        x[i] = 2310
    elif v == 771:
        x[i] = 2313
    elif v == 772:
        x[i] = 2316
    elif v == 773:
        x[i] = 2319
    elif v == 774:
        x[i] = 2322
    elif v == 775:
        x[i] = 2325
    elif v == 776:
        x[i] = 2328
    elif v == 777:
        x[i] = 2331
    elif v == 778:
        x[i] = 2334
    elif v == 779:
        x[i] = 2337
    elif v == 780:
        x[i] = 2340
    elif v == 781:
        x[i] = 2343
    elif v == 782:
        x[i] = 2346
    elif v == 783:
        x[i] = 2349
    elif v == 784:
        x[i] = 2352
    elif v == 785:
        x[i] = 2355
    elif v == 786:
        x[i] = 2358
    elif v == 787:
        x[i] = 2361
    elif v == 788:
        x[i] = 2364
    elif v == 789:
        x[i] = 2367
    elif v == 790:
        x[i] = 2370
    elif v == 791:
        x[i] = 2373
    elif v == 792:
        x[i] = 2376
    elif v == 793:
        x[i] = 2379
    elif v == 794:
        x[i] = 2382
    elif v == 795:
        x[i] = 2385
    elif v == 796:
        x[i] = 2388
    elif v == 797:
        x[i] = 2391
    elif v == 798:
        x[i] = 2394
    elif v == 799:
        x[i] = 2397
    elif v == 800:
        x[i] = 2400
    elif v == 801:
        x[i] = 2403
    elif v == 802:
        x[i] = 2406
    elif v == 803:
        x[i] = 2409
    elif v == 804:
        x[i] = 2412
    elif v == 805:
        x[i] = 2415
    elif v == 806:
        x[i] = 2418
    elif v == 807:
        x[i] = 2421
    elif v == 808:
        x[i] = 2424
    elif v == 809:
        x[i] = 2427
    elif v == 810:
        x[i] = 2430
    elif v == 811:
        x[i] = 2433
    elif v == 812:
        x[i] = 2436
    elif v == 813:
        x[i] = 2439
    elif v == 814:
        x[i] = 2442
    elif v == 815:
        x[i] = 2445
    elif v == 816:
        x[i] = 2448
    elif v == 817:
        x[i] = 2451
    elif v == 818:
        x[i] = 2454
    elif v == 819:
        x[i] = 2457
    elif v == 820:
        x[i] = 2460
    elif v == 821:
        x[i] = 2463
    elif v == 822:
        x[i] = 2466
    elif v == 823:
        x[i] = 2469
    elif v == 824:
        x[i] = 2472
    elif v == 825:
        x[i] = 2475
    elif v == 826:
        x[i] = 2478
    elif v == 827:
        x[i] = 2481
    elif v == 828:
        x[i] = 2484
    elif v == 829:
        x[i] = 2487
    elif v == 830:
        x[i] = 2490
    elif v == 831:
        x[i] = 2493
    elif v == 832:
        x[i] = 2496
    elif v == 833:
        x[i] = 2499
    elif v == 834:
        x[i] = 2502
    elif v == 835:
        x[i] = 2505
    elif v == 836:
        x[i] = 2508
    elif v == 837:
        x[i] = 2511
    elif v == 838:
        x[i] = 2514
    elif v == 839:
        x[i] = 2517
    elif v == 840:
        x[i] = 2520
    elif v == 841:
        x[i] = 2523
    elif v == 842:
        x[i] = 2526
    elif v == 843:
        x[i] = 2529
    elif v == 844:
        x[i] = 2532
    elif v == 845:
        x[i] = 2535
    elif v == 846:
        x[i] = 2538
    elif v == 847:
        x[i] = 2541
    elif v == 848:
        x[i] = 2544
    elif v == 849:
        x[i] = 2547
    elif v == 850:
        x[i] = 2550
    elif v == 851:
        x[i] = 2553
    elif v == 852:
        x[i] = 2556
    elif v == 853:
        x[i] = 2559
    elif v == 854:
        x[i] = 2562
    elif v == 855:
        x[i] = 2565
    elif v == 856:
        x[i] = 2568
    elif v == 857:
        x[i] = 2571
    elif v == 858:
        x[i] = 2574
    elif v == 859:
        x[i] = 2577
    elif v == 860:
        x[i] = 2580
    elif v == 861:
        x[i] = 2583
    elif v == 862:
        x[i] = 2586
    elif v == 863:
        x[i] = 2589
    elif v == 864:
        x[i] = 2592
    elif v == 865:
        x[i] = 2595
    elif v == 866:
        x[i] = 2598
    elif v == 867:
        x[i] = 2601
    elif v == 868:
        x[i] = 2604
    elif v == 869:
        x[i] = 2607
    elif v == 870:
        x[i] = 2610
    elif v == 871:
        x[i] = 2613
    elif v == 872:
        x[i] = 2616
    elif v == 873:
        x[i] = 2619
    elif v == 874:
        x[i] = 2622
    elif v == 875:
        x[i] = 2625
    elif v == 876:
        x[i] = 2628
    elif v == 877:
        x[i] = 2631
    elif v == 878:
        x[i] = 2634
    elif v == 879:
        x[i] = 2637
    elif v == 880:
        x[i] = 2640
    elif v == 881:
        x[i] = 2643
    elif v == 882:
        x[i] = 2646
    elif v == 883:
        x[i] = 2649
    elif v == 884:
        x[i] = 2652
    elif v == 885:
        x[i] = 2655
    elif v == 886:
        x[i] = 2658
    elif v == 887:
        x[i] = 2661
    elif v == 888:
        x[i] = 2664
    elif v == 889:
        x[i] = 2667
    elif v == 890:
        x[i] = 2670
    elif v == 891:
        x[i] = 2673
    elif v == 892:
        x[i] = 2676
    elif v == 893:
        x[i] = 2679
    elif v == 894:
        x[i] = 2682
    elif v == 895:
        x[i] = 2685
    elif v == 896:
        x[i] = 2688
    elif v == 897:
        x[i] = 2691
    elif v == 898:
        x[i] = 2694
    elif v == 899:
        x[i] = 2697
    elif v == 900:
        x[i] = 2700
    elif v == 901:
        x[i] = 2703
    elif v == 902:
        x[i] = 2706
    elif v == 903:
        x[i] = 2709
    elif v == 904:
        x[i] = 2712
    elif v == 905:
        x[i] = 2715
    elif v == 906:
        x[i] = 2718
    elif v == 907:
        x[i] = 2721
    elif v == 908:
        x[i] = 2724
    elif v == 909:
        x[i] = 2727
    elif v == 910:
        x[i] = 2730
    elif v == 911:
        x[i] = 2733
    elif v == 912:
        x[i] = 2736
    elif v == 913:
        x[i] = 2739
    elif v == 914:
        x[i] = 2742
    elif v == 915:
        x[i] = 2745
    elif v == 916:
        x[i] = 2748
    elif v == 917:
        x[i] = 2751
    elif v == 918:
        x[i] = 2754
    elif v == 919:
        x[i] = 2757
    elif v == 920:
        x[i] = 2760
    elif v == 921:
        x[i] = 2763
    elif v == 922:
        x[i] = 2766
    elif v == 923:
        x[i] = 2769
    elif v == 924:
        x[i] = 2772
    elif v == 925:
        x[i] = 2775
    elif v == 926:
        x[i] = 2778
    elif v == 927:
        x[i] = 2781
    elif v == 928:
        x[i] = 2784
    elif v == 929:
        x[i] = 2787
    elif v == 930:
        x[i] = 2790
    elif v == 931:
        x[i] = 2793
    elif v == 932:
        x[i] = 2796
    elif v == 933:
        x[i] = 2799
    elif v == 934:
        x[i] = 2802
    elif v == 935:
        x[i] = 2805
    elif v == 936:
        x[i] = 2808
    elif v == 937:
        x[i] = 2811
    elif v == 938:
        x[i] = 2814
    elif v == 939:
        x[i] = 2817
    elif v == 940:
        x[i] = 2820
    elif v == 941:
        x[i] = 2823
    elif v == 942:
        x[i] = 2826
    elif v == 943:
        x[i] = 2829
    elif v == 944:
        x[i] = 2832
    elif v == 945:
        x[i] = 2835
    elif v == 946:
        x[i] = 2838
    elif v == 947:
        x[i] = 2841
    elif v == 948:
        x[i] = 2844
    elif v == 949:
        x[i] = 2847
    elif v == 950:
        x[i] = 2850
    elif v == 951:
        x[i] = 2853
    elif v == 952:
        x[i] = 2856
    elif v == 953:
        x[i] = 2859
    elif v == 954:
        x[i] = 2862
    elif v == 955:
        x[i] = 2865
    elif v == 956:
        x[i] = 2868
    elif v == 957:
        x[i] = 2871
    elif v == 958:
        x[i] = 2874
    elif v == 959:
        x[i] = 2877
    elif v == 960:
        x[i] = 2880
    elif v == 961:
        x[i] = 2883
    elif v == 962:
        x[i] = 2886
    elif v == 963:
        x[i] = 2889
    elif v == 964:
        x[i] = 2892
    elif v == 965:
        x[i] = 2895
    elif v == 966:
        x[i] = 2898
    elif v == 967:
        x[i] = 2901
    elif v == 968:
        x[i] = 2904
    elif v == 969:
        x[i] = 2907
    elif v == 970:
        x[i] = 2910
    elif v == 971:
        x[i] = 2913
    elif v == 972:
        x[i] = 2916
    elif v == 973:
        x[i] = 2919
    elif v == 974:
        x[i] = 2922
    elif v == 975:
        x[i] = 2925
    elif v == 976:
        x[i] = 2928
    elif v == 977:
        x[i] = 2931
    elif v == 978:
        x[i] = 2934
    elif v == 979:
        x[i] = 2937
    elif v == 980:
        x[i] = 2940
    elif v == 981:
        x[i] = 2943
    elif v == 982:
        x[i] = 2946
    elif v == 983:
        x[i] = 2949
    elif v == 984:
        x[i] = 2952
    elif v == 985:
        x[i] = 2955
    elif v == 986:
        x[i] = 2958
    elif v == 987:
        x[i] = 2961
    elif v == 988:
        x[i] = 2964
    elif v == 989:
        x[i] = 2967
    elif v == 990:
        x[i] = 2970
    elif v == 991:
        x[i] = 2973
    elif v == 992:
        x[i] = 2976
    elif v == 993:
        x[i] = 2979
    elif v == 994:
        x[i] = 2982
    elif v == 995:
        x[i] = 2985
    elif v == 996:
        x[i] = 2988
    elif v == 997:
        x[i] = 2991
    elif v == 998:
        x[i] = 2994
    elif v == 999:
        x[i] = 2997
    elif v == 1000:
        x[i] = 3000
    elif v == 1001:
        x[i] = 3003
    elif v == 1002:
        x[i] = 3006
    elif v == 1003:
        x[i] = 3009
    elif v == 1004:
        x[i] = 3012
    elif v == 1005:
        x[i] = 3015
    elif v == 1006:
        x[i] = 3018
    elif v == 1007:
        x[i] = 3021
    elif v == 1008:
        x[i] = 3024
    elif v == 1009:
        x[i] = 3027
    elif v == 1010:
        x[i] = 3030
    elif v == 1011:
        x[i] = 3033
    elif v == 1012:
        x[i] = 3036
    elif v == 1013:
        x[i] = 3039
    elif v == 1014:
        x[i] = 3042
    elif v == 1015:
        x[i] = 3045
    elif v == 1016:
        x[i] = 3048
    elif v == 1017:
        x[i] = 3051
    elif v == 1018:
        x[i] = 3054
    elif v == 1019:
        x[i] = 3057
    elif v == 1020:
        x[i] = 3060
    elif v == 1021:
        x[i] = 3063
    elif v == 1022:
        x[i] = 3066
    elif v == 1023:
        x[i] = 3069
    elif v == 1024:
        x[i] = 3072
    elif v == 1025:
        x[i] = 3075
    elif v == 1026:
        x[i] = 3078
    elif v == 1027:
        x[i] = 3081
    elif v == 1028:
        x[i] = 3084
    elif v == 1029:
        x[i] = 3087
    elif v == 1030:
        x[i] = 3090
    elif v == 1031:
        x[i] = 3093
    elif v == 1032:
        x[i] = 3096
    elif v == 1033:
        x[i] = 3099
    elif v == 1034:
        x[i] = 3102
    elif v == 1035:
        x[i] = 3105
    elif v == 1036:
        x[i] = 3108
    elif v == 1037:
        x[i] = 3111
    elif v == 1038:
        x[i] = 3114
    elif v == 1039:
        x[i] = 3117
    elif v == 1040:
        x[i] = 3120
    elif v == 1041:
        x[i] = 3123
    elif v == 1042:
        x[i] = 3126
    elif v == 1043:
        x[i] = 3129
    elif v == 1044:
        x[i] = 3132
    elif v == 1045:
        x[i] = 3135
    elif v == 1046:
        x[i] = 3138
    elif v == 1047:
        x[i] = 3141
    elif v == 1048:
        x[i] = 3144
    elif v == 1049:
        x[i] = 3147
    elif v == 1050:
        x[i] = 3150
    elif v == 1051:
        x[i] = 3153
    elif v == 1052:
        x[i] = 3156
    elif v == 1053:
        x[i] = 3159
    elif v == 1054:
        x[i] = 3162
    elif v == 1055:
        x[i] = 3165
    elif v == 1056:
        x[i] = 3168
    elif v == 1057:
        x[i] = 3171
    elif v == 1058:
        x[i] = 3174
    elif v == 1059:
        x[i] = 3177
    elif v == 1060:
        x[i] = 3180
    elif v == 1061:
        x[i] = 3183
    elif v == 1062:
        x[i] = 3186
    elif v == 1063:
        x[i] = 3189
    elif v == 1064:
        x[i] = 3192
    elif v == 1065:
        x[i] = 3195
    elif v == 1066:
        x[i] = 3198
    elif v == 1067:
        x[i] = 3201
    elif v == 1068:
        x[i] = 3204
    elif v == 1069:
        x[i] = 3207
    elif v == 1070:
        x[i] = 3210
    elif v == 1071:
        x[i] = 3213
    elif v == 1072:
        x[i] = 3216
    elif v == 1073:
        x[i] = 3219
    elif v == 1074:
        x[i] = 3222
    elif v == 1075:
        x[i] = 3225
    elif v == 1076:
        x[i] = 3228
    elif v == 1077:
        x[i] = 3231
    elif v == 1078:
        x[i] = 3234
    elif v == 1079:
        x[i] = 3237
    elif v == 1080:
        x[i] = 3240
    elif v == 1081:
        x[i] = 3243
    elif v == 1082:
        x[i] = 3246
    elif v == 1083:
        x[i] = 3249
    elif v == 1084:
        x[i] = 3252
    elif v == 1085:
        x[i] = 3255
    elif v == 1086:
        x[i] = 3258
    elif v == 1087:
        x[i] = 3261
    elif v == 1088:
        x[i] = 3264
    elif v == 1089:
        x[i] = 3267
    elif v == 1090:
        x[i] = 3270
    elif v == 1091:
        x[i] = 3273
    elif v == 1092:
        x[i] = 3276
    elif v == 1093:
        x[i] = 3279
    elif v == 1094:
        x[i] = 3282
    elif v == 1095:
        x[i] = 3285
    elif v == 1096:
        x[i] = 3288
    elif v == 1097:
        x[i] = 3291
    elif v == 1098:
        x[i] = 3294
    elif v == 1099:
        x[i] = 3297
    else:
        x[i] = -1
