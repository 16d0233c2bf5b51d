import { crc32, deflateSync } from 'node:zlib';

/**
 * A valid greyscale PNG of `side` × `side` black pixels, built chunk by chunk: encoding a
 * 20000 × 20000 picture with sharp would decode and hold 400 MB, while its rows of zeros deflate to
 * a few hundred kilobytes here.
 */
export function blackSquarePng(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter method, not interlaced
  // Each row: filter byte 0 and `side` zero bytes.
  const pixels = deflateSync(Buffer.alloc((side + 1) * side), { level: 1 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
