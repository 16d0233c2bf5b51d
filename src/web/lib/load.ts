import { data } from 'react-router';

/**
 * Turns the domain's NotFound (status 404) into the 404 page; anything else propagates. The check
 * is structural: the server's error classes live in another module graph than the web build.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof Error && (error as { status?: unknown }).status === 404)
      throw data(null, { status: 404 });
    throw error;
  }
}
