/**
 * The app's first use of a token: a FHIR read with `Authorization: Bearer`. Not a library
 * call (fhir-auth gets tokens; any HTTP client uses them), so it goes through the recording
 * fetch directly.
 */
import type { DemoContext } from '../demo-context.js'

const readTimeoutMs = 10_000

/**
 * Reads `Patient/{id}` and checks the server answered with that patient.
 *
 * @throws DemoFailure when the status is not 200 or the resource is another one.
 */
export async function readPatient(
  context: DemoContext,
  fhirBaseUrl: string,
  patientId: string,
  accessToken: string,
): Promise<void> {
  const url = `${fhirBaseUrl}/Patient/${encodeURIComponent(patientId)}`
  const response = await context.call(
    `fetch('${fhirBaseUrl}/Patient/${patientId}', { headers: { authorization: 'Bearer …' } })`,
    () =>
      context.recorder.fetch(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/fhir+json' },
        signal: AbortSignal.timeout(readTimeoutMs),
      }),
  )
  const resource: unknown = response.ok ? await response.json() : undefined
  const record = (typeof resource === 'object' && resource !== null ? resource : {}) as Record<
    string,
    unknown
  >
  context.check(
    response.status === 200 && record.resourceType === 'Patient' && record.id === patientId,
    `the FHIR server accepted the token and returned Patient/${patientId}`,
    `reading Patient/${patientId} with the token gave HTTP ${response.status}`,
  )
}
