import { describe, expect, it } from 'vitest'
import { workLimits } from './offline.js'
import { type PlanTable, limitsOf, planOf } from './plans.js'

const limits = (storageBytes: number) => ({ storageBytes, offlineTasksPerDay: 1, offlineRunningTasks: 1, transcodedPlayback: false, playsPerDay: -1, downloadBytesPerDay: -1 })
const plans: PlanTable = { free: limits(10), paid: { vip: { ...limits(100), level: 1 }, platinum: { ...limits(1000), level: 2 } } }

describe('plans', () => {
  it('gives a running membership its plan and everyone else the free plan', () => {
    expect(planOf({ plans }, { vasType: 'platinum', expiresAtMs: 2000 }, 1000)).toEqual({ name: 'platinum', member: true, limits: plans.paid['platinum'] })
    expect(planOf({ plans }, { vasType: 'platinum', expiresAtMs: 1000 }, 1000)).toEqual({ name: 'novip', member: false, limits: plans.free })
    expect(planOf({ plans }, null, 1000).limits).toBe(plans.free)
  })

  it('falls back to vip, then free, for a plan no longer configured, and never to an Object property', () => {
    expect(limitsOf(plans, 'gold')).toBe(plans.paid['vip'])
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(limitsOf(plans, name), name).toBe(plans.paid['vip'])
    expect(limitsOf({ free: plans.free, paid: {} }, 'constructor')).toBe(plans.free)
    expect(limitsOf(plans, 'novip')).toBe(plans.free)
  })

  it('gives an offline task its plan until that membership ended, then the free plan', () => {
    expect(workLimits({ plans }, { plan: 'platinum', planUntilMs: 5000 }, 5000).storageBytes).toBe(1000)
    expect(workLimits({ plans }, { plan: 'platinum', planUntilMs: 5000 }, 5001).storageBytes).toBe(10)
    // Tasks added before plans had names.
    expect(workLimits({ plans }, { vip: true }, 0).storageBytes).toBe(100)
    expect(workLimits({ plans }, {}, 0).storageBytes).toBe(10)
  })
})
