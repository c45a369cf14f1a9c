/** Why the sign-in screen shows: kept in the tab's session storage across the sign-out, read once. */
export type SignInNotice = 'accountDeleted';

const KEY = 'im.signInNotice';

export function leaveSignInNotice(notice: SignInNotice): void {
  try {
    sessionStorage.setItem(KEY, notice);
  } catch {
    // No storage: no notice.
  }
}

/** The notice left for the sign-in screen, if any; taken (it shows once). */
export function takeSignInNotice(): SignInNotice | null {
  try {
    const notice = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return notice === 'accountDeleted' ? notice : null;
  } catch {
    return null;
  }
}
