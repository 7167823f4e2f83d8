// The share link's payload codec: deflate-raw + base64url, with the browser's own
// CompressionStream. Its own small module (a wasm-bindgen snippet of the page), not part of the
// CodeMirror bundle: an embed reads a link's scenario without downloading the editor.

function toBase64Url(bytes) {
  let bin = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + chunk));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(s) {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** deflate-raw + base64url (for the share link in the URL hash). */
export async function compress(text) {
  const bytes = new TextEncoder().encode(text);
  return toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
}

export async function decompress(s) {
  const bytes = fromBase64Url(s);
  return new TextDecoder().decode(await pipe(bytes, new DecompressionStream("deflate-raw")));
}
