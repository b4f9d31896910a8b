import { parseScopes } from '@fhir-auth/client'
import {
  compareInterleaved,
  type InterleavedComparison,
  type MeasurementPlan,
} from '../measurement/interleaved-comparison.js'
import { distributionValues } from '../report/distribution.js'
import type { SectionReport } from '../report/figure.js'
import { formatRatio, roundTo } from '../report/format.js'

/** Parses per timed operation: one parse of 50 scopes is near the clock's resolution. */
export const parsesPerOperation = 20

const plan: MeasurementPlan = { warmupIterations: 100, samples: 500 }

/**
 * A realistic 50-scope grant: v1 and v2 resource scopes over the US Core types, some restricted
 * by category, launch and identity scopes, and a few a server may add (mixed case, duplicates,
 * an extension scope).
 */
export function fiftyScopes(): string {
  const types = [
    'AllergyIntolerance',
    'CarePlan',
    'CareTeam',
    'Condition',
    'Coverage',
    'Device',
    'DiagnosticReport',
    'DocumentReference',
    'Encounter',
    'Goal',
    'Immunization',
    'Location',
    'Medication',
    'MedicationDispense',
    'MedicationRequest',
    'Observation',
    'Organization',
    'Patient',
    'Practitioner',
    'PractitionerRole',
    'Procedure',
    'Provenance',
    'QuestionnaireResponse',
    'RelatedPerson',
    'ServiceRequest',
    'Specimen',
  ]
  const scopes = [
    ...types.map((type) => `patient/${type}.rs`),
    ...types.slice(0, 8).map((type) => `user/${type}.read`),
    'patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory',
    'patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs',
    'patient/Condition.rs?category=http://terminology.hl7.org/CodeSystem/condition-category|problem-list-item',
    'patient/DocumentReference.cu',
    'user/Patient.Read',
    'user/Patient.read',
    'system/*.rs',
    'launch',
    'launch/patient',
    'launch/encounter',
    'openid',
    'fhirUser',
    'offline_access',
    'online_access',
    '__profilePhoto.manage',
    'profile',
  ]
  return scopes.join(' ')
}

/**
 * The two contenders over the same string: `parseScopes` (the whole grammar, merged, with the
 * launch and identity scopes read) and `String.prototype.split` (what an app that keeps scopes
 * as text pays), {@link parsesPerOperation} times per timed operation.
 */
export function scopeContenders(text = fiftyScopes()) {
  const quiet = { info() {}, warn() {}, error() {} }
  return {
    split: () => {
      let count = 0
      for (let parse = 0; parse < parsesPerOperation; parse++) count += text.split(' ').length
      return count
    },
    parse: () => {
      let count = 0
      for (let parse = 0; parse < parsesPerOperation; parse++)
        count += parseScopes(text, { logger: quiet }).resources.length
      return count
    },
  }
}

/**
 * `parseScopes` on a 50-scope string against `String.prototype.split` over the same string,
 * interleaved in the same run: the ratio says what the parser costs over keeping scopes as text.
 * No goal (issue 28 asks for the figure).
 */
export async function runScopesSection(): Promise<SectionReport> {
  const text = fiftyScopes()
  const contenders = scopeContenders(text)
  const comparison: InterleavedComparison = await compareInterleaved(
    { name: "text.split(' ')", run: contenders.split },
    { name: 'parseScopes(text)', run: contenders.parse },
    plan,
  )
  const perParseUs = (milliseconds: number) => (milliseconds * 1e3) / parsesPerOperation
  const subjectUs = perParseUs(comparison.subject.median)
  const baselineUs = perParseUs(comparison.baseline.median)
  return {
    id: 'scopes',
    title: 'Scopes: parseScopes on a 50-scope string vs String.prototype.split',
    figures: [
      {
        id: 'scopes.parse50',
        label: "parseScopes, 50 scopes, vs text.split(' ')",
        goal: '—',
        measured: `${formatRatio(comparison.ratio)} (${subjectUs.toFixed(1)} vs ${baselineUs.toFixed(2)} µs per parse; fastest ${formatRatio(comparison.fastestRatio)})`,
        verdict: 'info',
        values: {
          ratio: roundTo(comparison.ratio, 2),
          fastestRatio: roundTo(comparison.fastestRatio, 2),
          parseUsPerCall: roundTo(subjectUs, 2),
          splitUsPerCall: roundTo(baselineUs, 3),
          parsesPerOperation,
          scopes: text.split(' ').length,
          parse: distributionValues(comparison.subject),
          split: distributionValues(comparison.baseline),
        },
      },
    ],
    details: [
      `the same ${text.length}-character string of ${text.split(' ').length} scopes (v1 and v2, category restrictions, launch, identity, a mixed-case duplicate, extension scopes); each timed operation is ${parsesPerOperation} parses; interleaved (${plan.samples} pairs after ${plan.warmupIterations} warm-up pairs)`,
    ],
  }
}
