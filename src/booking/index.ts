/**
 * The face of the booking room: everything a command uses of booking, one place to look. Behind
 * it: the engine (engine.ts: book one, create one, accept one, resume), the batch (batch/: book
 * many, its check, plan and reports), the one recorder (record.ts: every ledger record, a change
 * made by hand included), claims (claim.ts), payment and price caps, and waiting for the booking
 * result (result/, receiver.ts). Commands import this module, never the rooms behind it.
 */

// Book one, create one, accept one: the engine and what it says about an earlier booking.
export { acceptedNotEnded, bookEntry, createEntry, resumeFrom, type Resume } from './engine.js';
export type { BookingDocument } from './book.js';
export { createdStage, earlierBooking, type EarlierBooking } from './earlier.js';
export { BookingStoppedError } from './progress.js';
export { planBooking } from './plan.js';
export { acceptByHand } from './accept.js';
export { bookOne } from './book-one.js';
export { claimDocument, claimFreshOccurrence, type ClaimNote, type ClaimRun } from './claim.js';

// Record a change made by hand, or learned from the service.
export { acceptedBeforeText, changeIdentity, identityOfOrder, recordedRequest, recordFailed, recordLearned, recordResolved } from './record.js';

// Book many.
export type { BatchInputOptions } from './batch/inputs.js';
export { runBatch } from './batch/runner.js';
export { batchConnections } from './batch/slots.js';
export { BatchStoppedError, emptySummary, lastKnown, type BatchResult, type BatchSummary } from './batch/results.js';
export { planBatch, plannedAction } from './batch/plan.js';
export { checkBatch, batchItems, type BatchCheck } from './batch/check.js';
export { ReportWriter } from './batch/report.js';
export { CsvReportWriter, isCsvReport } from './batch/report-csv.js';

// Payment, price caps and pickups.
export { buildAcceptRequest, NEW_ORDER, type PaymentFlags } from './payment.js';
export { judgeCaps, parseCap, RunBudget, type BudgetReservation, type PriceCaps } from './limits.js';
export { orderWarnings, priceWarnings } from './price-check.js';
export { pickupRule, type PickupFlags } from './pickup/rule.js';

// Waiting for the booking result.
export { DEFAULT_WAIT_TIMEOUT_MS } from './wait.js';
export { DEFAULT_POLL_MS, prepareResultWaiter, prepareRunWaiter, type ListenAddress, type ResultWaiter, type WaitSettings } from './result/route.js';
export { callbackRecorder } from './callback-record.js';
export { REFUSAL_INTERVAL_MS, RefusalLog, TOKEN_PATTERN, startCallbackReceiver, type ReceivedCallback } from './receiver.js';
export { batchEnd, batchOutcome, openBatchLedger } from './batch/outcome.js';
export { BatchReports } from './batch/reports.js';
export { chooseCheapest, chooseService, previewBatch, priceShipments, type Preview, type PreviewRow, type PreparedOrder } from './preview.js';
export { acceptedOn, readPendingResults, type PendingResults } from './dock/pending.js';
export { noMatch, type NoMatch } from './dock/no-match.js';
export { DockSession, extractorOf, type DockParcel, type ScanEvent, type DockSummary, type ScanKind } from './dock/session.js';
export { DockStation, type StationOptions } from './dock/station.js';
export { itemsWithoutCode, papersOf, partyName, type Paper, type PaperChoice } from './papers/build.js';
export { paperOrders, paperOrdersOf, type LedgerPaperOrder } from './papers/ledger.js';
export { selectPaperOrders } from './papers/select.js';
export { isInternational } from './papers/shipment.js';
export { loadCatalogue, type Catalogue } from './papers/catalogue.js';
export { recordPapersMade, recordDock, type RecordedParcel } from './record.js';
export {
  applyDecision,
  decideOrder,
  decisionRecord,
  documentTags,
  loadQuoteFile,
  loadRules,
  orderShipments,
  ratedEntry,
  rulesJsonSchema,
  runRuleCases,
  rulesDiff,
  type RulesDiff,
  type CaseResult,
  type Decision,
  type OrderDecision,
  type PriceList,
  type RatedEntry,
  type RuleSet,
  type ServiceChoice,
} from './rules/index.js';
export { MailGroups } from './batch/mail.js';
export { mailMember, mailPath, MIXED_ORDER, type CollectionFields, type MailPath } from './mail/member.js';
