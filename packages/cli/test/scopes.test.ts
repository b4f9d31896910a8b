/**
 * `fhir-auth scopes explain`: a table of what each SMART scope means (context, resource,
 * interactions, restrictions, v1 and v2 forms), unknown and malformed scopes in rows of their own;
 * exit 0. No server involved.
 */
import { describe, expect, it } from 'vitest'
import { runCli } from './support/cli-harness.js'

describe('scopes explain', () => {
  it('prints one row per scope with its v1 and v2 forms, malformed and unknown ones marked', async () => {
    const result = await runCli([
      'scopes',
      'explain',
      'patient/Observation.rs?category=laboratory user/*.read',
      'launch/patient',
      'openid',
      'offline_access',
      'patient/Observation.sr',
      'profile',
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(
      /^scope\s+kind\s+context\s+resource\s+interactions\s+restrictions\s+v1\s+v2$/,
    )
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/))).toEqual([
      [
        'patient/Observation.rs?category=laboratory',
        'resource',
        'patient',
        'Observation',
        'rs (read, search)',
        'category=laboratory',
        'patient/Observation.read (wider)',
        'patient/Observation.rs?category=laboratory',
      ],
      [
        'user/*.read',
        'resource',
        'user',
        '*',
        'rs (read, search)',
        '-',
        'user/*.read',
        'user/*.rs',
      ],
      ['launch/patient', 'launch', '-', '-', '-', '-', 'launch/patient', 'launch/patient'],
      ['openid', 'identity', '-', '-', '-', '-', 'openid', 'openid'],
      ['offline_access', 'refresh', '-', '-', '-', '-', 'offline_access', 'offline_access'],
      [
        'patient/Observation.sr',
        'malformed',
        '-',
        '-',
        '-',
        '-',
        'patient/Observation.sr',
        'patient/Observation.sr',
      ],
      ['profile', 'unknown', '-', '-', '-', '-', 'profile', 'profile'],
    ])
    expect(result.stderr).toBe('')
  })

  it('prints an array with --json', async () => {
    const result = await runCli(['scopes', 'explain', 'patient/Observation.c', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual([
      {
        scope: 'patient/Observation.c',
        kind: 'resource',
        context: 'patient',
        resourceType: 'Observation',
        interactions: 'c',
        restrictions: [],
        v1: 'patient/Observation.write',
        v1Widens: true,
        v2: 'patient/Observation.c',
      },
    ])
  })

  it.each([
    [['scopes'], /at least one scope|unknown scopes action/],
    [['scopes', 'explain'], /at least one scope/],
    [['scopes', 'list', 'openid'], /unknown scopes action "list": use explain/],
  ])('%j is a usage error', async (argv, message) => {
    const result = await runCli(argv)
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(message)
  })

  it('is listed in the help', async () => {
    const result = await runCli(['--help'])
    expect(result.stdout).toMatch(/scopes\s+explain SMART scopes/)
    const help = await runCli(['scopes', '--help'])
    expect(help.stdout).toContain('fhir-auth scopes explain <scope>…')
  })
})
