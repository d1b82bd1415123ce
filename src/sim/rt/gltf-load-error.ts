/** A glTF scene file that cannot be loaded: the message names the file and what in it is wrong. */
export class GltfLoadError extends Error {
  constructor(readonly file: string, detail: string) {
    super(`${file}: ${detail}`);
    this.name = 'GltfLoadError';
  }
}
