import { runUrl } from '@cc/contract';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { notifyLinkFailed } from '../../../lib/use-linked-record';
import { findRunKind } from '../api';
import { RUN_NOT_FOUND } from './run-detail-page';

/**
 * /app/runs/:runId — where a run citation leads (`citationUrl('run', id)` knows no kind): finds
 * whether the run is a crew or a flow run and replaces itself with that run's page.
 */
export default function RunLinkPage() {
  const { runId = '' } = useParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setFailed(false);
    const fail = (err: unknown) => {
      if (!live) return;
      notifyLinkFailed('run', err);
      setFailed(true);
    };
    findRunKind(runId)
      .then((kind) => {
        if (!live) return;
        if (kind) navigate(runUrl(kind, runId), { replace: true });
        else fail(null);
      })
      .catch(fail);
    return () => {
      live = false;
    };
  }, [runId, navigate]);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Run" />
      {failed ? <Alert>{RUN_NOT_FOUND}</Alert> : <Spinner label="Opening the run" />}
    </div>
  );
}
