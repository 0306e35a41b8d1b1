/**
 * User-facing strings of the product specification (sections 2, 4, 5, 8). They are requirements
 * word for word, including the spec's own spelling; do not reword them.
 */
export const MESSAGES = {
  invalidFileType:
    'Invalid file type. Please upload a video file (e.g., MP4, MOV, AVI, MKV). Audio files are not supported.',
  fileTooLarge: (size: string) => `File is too large (${size}). Maximum is 100MB.`,
  videoTooLong: (seconds: number) =>
    `Video is too long (${seconds}s). Maximum length is 30 seconds.`,
  durationUnreadable: 'Unable to read video duration.',
  invalidVideo: 'Invalid or unsupported video file.',
  couldNotValidateDuration: 'Could not validate video duration.',
  noFile: 'Please select a file to upload.',
  notSignedIn: 'Please sign in with the identity provider to continue.',
  cameraDenied: 'Unable to access camera. Please ensure camera permissions are granted.',
  recordingFailed: 'Unable to start recording. Please try again.',
  invalidJobId: 'Please enter a valid Job ID',
  outOfCredits: (kind: 'creator' | 'view') =>
    `Unfortunately you are out of ${kind} credits. Get more to continue.`,
  noViewCredits: 'You have no view credits left to view this video. Get more to continue.',
  viewCreditsRequired: 'View credits required to see this content.',
  jobFailed:
    'There was an issue analyzing this video. Please try again later or try a different video.',
  defaultProcessingMessage: 'Your video is being processed by our AI.',
  processingComplete: 'Processing complete! Your tabs are ready.',
  defaultUpgradeMessage: 'User requested an upgrade to Pro plan',
  changesSaved: 'Changes saved successfully!',
  failedToLoadJobStatus: 'Failed to load job status',
  failedToLoadJob: 'Failed to load job. Please check the Job ID.',
  failedToStartProcessing: 'Failed to start video processing.',
  failedToPrepareUploadLink: 'Failed to prepare upload link.',
  couldNotPrepareFile: 'Could not prepare file for upload.',
  directUploadFailed: (status: number) =>
    `Direct upload failed. Status: ${String(status)}. Please try again.`,
  unknownUploadError: 'An unknown error occurred during upload.',
  unexpectedNetworkError: 'An unexpected network error occurred.',
  upgradeRequestSubmitted: 'Request Submitted!',
  upgradeRequestUnderReview: 'Request Under Review',
  failedToSubmitUpgrade: 'Failed to submit upgrade request',
} as const;

/** Formats a byte count the way the too-large message shows it, e.g. "123.4MB". */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
