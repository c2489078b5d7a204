/**
 * The font the PDF documents are set in: Noto Sans Regular (Latin, Greek, Cyrillic; SIL Open Font
 * License 1.1), from the npm package `@expo-google-fonts/noto-sans`. It is a file, not code: the
 * bundle step copies it (and its licence) into the folder of the one function that writes PDFs
 * (`functionExtras`, infra/build/bundle.ts), whose environment names that folder (`PDF_FONT_DIR`);
 * elsewhere (the local runtime, tests) it is read from the installed package.
 */
export const PDF_FONT = {
  package: '@expo-google-fonts/noto-sans',
  /** The TrueType file inside the package. */
  file: '400Regular/NotoSans_400Regular.ttf',
  /** Its licence (OFL-1.1) inside the package. */
  licence: 'LICENSE_FONT',
  /** The names both take in the function's folder. */
  bundledFile: 'NotoSans-Regular.ttf',
  bundledLicence: 'OFL.txt',
  /** The environment variable naming that folder. */
  dirVariable: 'PDF_FONT_DIR',
} as const;
