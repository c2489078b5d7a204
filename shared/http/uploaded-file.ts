import { BadRequestError } from './errors.ts';
import type { UploadedFile } from './multipart.ts';

/** The one part named `file` of a multipart upload, and not empty (400 otherwise): every upload route's rule. */
export function uploadedFile(files: UploadedFile[]): UploadedFile {
  const file = files.find((f) => f.field === 'file');
  if (!file || file.data.length === 0) throw new BadRequestError(['file: a non-empty part named file is required']);
  return file;
}
