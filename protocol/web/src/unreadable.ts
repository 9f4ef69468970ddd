// Files the page cannot show as text (editor_open refuses a binary file, a
// denied one, one gone or too large to read): what kind of file it is, by
// its name, and its size (docs.ts reads it), for the tab that says so in
// place of an editor.

const kinds: [RegExp, string][] = [
  [/\.(png|jpe?g|gif|webp|bmp|ico|tiff?|avif|heic)$/i, "image"],
  [/\.(zip|gz|tgz|bz2|xz|zst|7z|rar|tar|jar|war|whl)$/i, "archive"],
  [/\.pdf$/i, "PDF document"],
  [/\.(woff2?|ttf|otf|eot)$/i, "font"],
  [/\.(mp3|wav|ogg|flac|m4a|aac)$/i, "audio file"],
  [/\.(mp4|mov|webm|mkv|avi)$/i, "video"],
  [/\.(exe|dll|so|dylib|o|a|obj|class|pyc|wasm)$/i, "compiled program or library"],
  [/\.(db|sqlite3?)$/i, "database"],
  [/\.(docx?|xlsx?|pptx?|odt|ods)$/i, "office document"],
];

/** A name for what kind of file path is, for a person: "PNG image". */
export function kindOf(path: string): string {
  for (const [re, kind] of kinds) {
    const m = re.exec(path);
    if (m) return kind === "image" ? `${m[1].toUpperCase().replace("JPG", "JPEG")} image` : kind;
  }
  return "binary file";
}

/** What the tab says: the file, its kind and size, and why it is not
 * shown. */
export function describe(path: string, code: string, message: string, size: number | null): { title: string; detail: string } {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const bytes = size === null ? "" : `${size.toLocaleString("en")} bytes`;
  switch (code) {
    case "binary":
      return {
        title: `${name} is a ${kindOf(path)}${bytes ? `, ${bytes}` : ""}.`,
        detail: "It is binary (a NUL byte, or not UTF-8), and editord opens and saves text only: it is not shown here, and nothing can be typed into it.",
      };
    case "not_found":
      return { title: `${name} is gone.`, detail: `${message} Close this tab, or create the file again from the tree.` };
    default:
      return { title: `${name} cannot be opened${bytes ? ` (${bytes})` : ""}.`, detail: message };
  }
}
