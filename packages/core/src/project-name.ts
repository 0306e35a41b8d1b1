/** A project name that is empty, 'null' or 'undefined' counts as absent (spec section 5). */
export function isMeaningfulName(value: string | null | undefined): value is string {
  if (value === null || value === undefined) return false;
  const v = value.trim();
  return v !== '' && v !== 'null' && v !== 'undefined';
}

/** Normalises a project name for storage: absent values become null, others are trimmed. */
export function normalizeProjectName(value: string | null | undefined): string | null {
  return isMeaningfulName(value) ? value.trim() : null;
}

/** The file name without its last extension ("solo.take2.mp4" -> "solo.take2"). */
export function stripExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/**
 * The name a lesson is shown under: the project name, else the other name source (for example
 * the name stored with the results), else the file name without its extension.
 */
export function lessonDisplayName(
  projectName: string | null | undefined,
  otherName: string | null | undefined,
  fileName: string,
): string {
  if (isMeaningfulName(projectName)) return projectName.trim();
  if (isMeaningfulName(otherName)) return otherName.trim();
  return stripExtension(fileName);
}

/**
 * The file name an exported video with tabs downloads under: the lesson's name made safe for
 * file systems (letters, digits, spaces as dashes), then `-tabs.<extension>`.
 */
export function exportFileName(lessonName: string, extension: 'mp4' | 'webm'): string {
  const stem = lessonName
    .replace(/[^\p{L}\p{N} _-]+/gu, '')
    .trim()
    .replace(/\s+/g, '-');
  return `${stem || 'lesson'}-tabs.${extension}`;
}
