// What the browser learns about a chosen image before uploading it: type, size, dimensions, whether a GIF is animated.

/** Frames in a GIF (image descriptors), walking the block structure; 1 for anything unreadable. */
export function gifFrameCount(bytes: Uint8Array): number {
  if (bytes.length < 13 || String.fromCharCode(...bytes.slice(0, 3)) !== "GIF") return 1;
  let i = 13;
  if (bytes[10] & 0x80) i += 3 * 2 ** ((bytes[10] & 0x07) + 1); // global colour table
  const skipSubBlocks = () => {
    while (i < bytes.length && bytes[i] !== 0) i += bytes[i] + 1;
    i++;
  };
  let frames = 0;
  while (i < bytes.length) {
    const block = bytes[i++];
    if (block === 0x2c) {
      frames++;
      const packed = bytes[i + 8];
      i += 9;
      if (packed & 0x80) i += 3 * 2 ** ((packed & 0x07) + 1); // local colour table
      i++; // LZW minimum code size
      skipSubBlocks();
    } else if (block === 0x21) {
      i++; // extension label
      skipSubBlocks();
    } else {
      break; // 0x3b trailer, or garbage
    }
  }
  return Math.max(frames, 1);
}

export interface ProbedImage {
  type: string;
  size: number;
  width: number;
  height: number;
  animated: boolean;
  dataUri: string;
}

export async function probeImageFile(file: File): Promise<ProbedImage> {
  const buffer = new Uint8Array(await file.arrayBuffer());
  const dataUri = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  const { width, height } = await new Promise<{ width: number; height: number }>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error("This file is not an image the browser can read."));
    img.src = dataUri;
  });
  return {
    type: file.type,
    size: file.size,
    width,
    height,
    animated: file.type === "image/gif" && gifFrameCount(buffer) > 1,
    dataUri,
  };
}
