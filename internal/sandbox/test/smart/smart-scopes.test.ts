import { describe, expect, it } from 'vitest'
import { resolveLaunchContext } from '../../src/smart/launch-context.js'
import {
  allowsRead,
  isAppLaunchScope,
  isBackendServicesScope,
  parseClinicalScope,
  splitScopes,
} from '../../src/smart/smart-scopes.js'

describe('parseClinicalScope', () => {
  it('reads v2 permissions in cruds order with an optional query', () => {
    const parsed = parseClinicalScope('patient/Observation.rs?category=laboratory')

    expect(parsed).toEqual({
      context: 'patient',
      resourceType: 'Observation',
      permissions: new Set(['r', 's']),
      query: 'category=laboratory',
    })
  })

  it('maps v1 read/write/* to v2 letters', () => {
    expect(parseClinicalScope('user/*.read')?.permissions).toEqual(new Set(['r', 's']))
    expect(parseClinicalScope('system/Patient.write')?.permissions).toEqual(
      new Set(['c', 'u', 'd']),
    )
    expect(parseClinicalScope('patient/*.*')?.permissions.size).toBe(5)
  })

  it.each([
    'patient/Observation.',
    'patient/Observation.sr',
    'patient/Observation.rx',
    'patient/Observation.read?category=x',
    'practitioner/Patient.rs',
    'patient/observation.rs',
    'launch/patient',
    'openid',
  ])('rejects %s', (scope) => {
    expect(parseClinicalScope(scope)).toBeUndefined()
  })
})

describe('scope classes', () => {
  it('grants app launches patient/, user/, launch and identity scopes but not system/', () => {
    expect(
      [
        'patient/*.rs',
        'user/Patient.cruds',
        'launch',
        'launch/encounter',
        'openid',
        'fhirUser',
        'offline_access',
      ].every(isAppLaunchScope),
    ).toBe(true)
    expect(isAppLaunchScope('system/Patient.rs')).toBe(false)
    expect(isAppLaunchScope('made/up')).toBe(false)
  })

  it('grants backend services only system/ scopes', () => {
    expect(isBackendServicesScope('system/*.rs')).toBe(true)
    expect(isBackendServicesScope('user/*.rs')).toBe(false)
  })

  it('splits scope strings into distinct non-empty scopes', () => {
    expect(splitScopes('a  b a ')).toEqual(['a', 'b'])
    expect(splitScopes(undefined)).toEqual([])
  })

  it('decides whether scopes read a resource type in a context', () => {
    expect(allowsRead(['patient/*.rs'], 'Patient', 'patient')).toBe(true)
    expect(allowsRead(['patient/*.rs'], 'Patient', 'user')).toBe(false)
    expect(allowsRead(['user/Patient.c'], 'Patient', 'user')).toBe(false)
    expect(allowsRead(['user/Observation.rs'], 'Patient')).toBe(false)
  })
})

describe('resolveLaunchContext', () => {
  it('takes patient and encounter from an EHR launch, banner off by default', () => {
    const context = resolveLaunchContext({
      scopes: ['launch', 'patient/*.rs'],
      launch: { patient: 'p-7', encounter: 'e-1' },
      standalonePatient: 'patient-1',
    })

    expect(context).toEqual({ patient: 'p-7', encounter: 'e-1', needPatientBanner: false })
  })

  it('picks the standalone patient for launch/patient or patient/ scopes', () => {
    expect(
      resolveLaunchContext({
        scopes: ['launch/patient'],
        launch: undefined,
        standalonePatient: 'p-1',
      }),
    ).toEqual({ patient: 'p-1', needPatientBanner: true })
    expect(
      resolveLaunchContext({
        scopes: ['patient/Observation.rs'],
        launch: undefined,
        standalonePatient: 'p-1',
      }).patient,
    ).toBe('p-1')
  })

  it('gives no patient to user/ scopes alone', () => {
    expect(
      resolveLaunchContext({
        scopes: ['user/*.rs', 'launch/encounter'],
        launch: undefined,
        standalonePatient: 'p-1',
      }),
    ).toEqual({ needPatientBanner: false })
  })
})
