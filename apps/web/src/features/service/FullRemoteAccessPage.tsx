import { Typography } from '@mui/material';
import { ServiceArticle } from './ServiceArticle';

/** /service/full-remote-access. */
export default function FullRemoteAccessPage() {
  return (
    <ServiceArticle
      title="Full remote access"
      lead="With a secure remote connection to the scrubber's control system, our engineers can look at the same screens as your crew, from shore, while the ship is at sea."
      points={[
        {
          title: 'Faults solved from shore',
          text: 'Most alarms are settled in a call: our engineer reads the live values and the alarm history, and guides the crew step by step, without waiting for the next port.',
        },
        {
          title: 'Data that arrives by itself',
          text: 'The onboard uploader sends the logger files to the portal automatically, so dashboards stay current without anyone on board having to remember.',
        },
        {
          title: 'Secure by design',
          text: 'Connections are opened from the ship, encrypted end to end and logged. The crew can see when an engineer is connected and can end the session at any time.',
        },
        {
          title: 'Trends before failures',
          text: 'We watch pump currents, differential pressures and wash-water values for slow drift, and tell you before a worn part turns into an off-hire day.',
        },
        {
          title: 'Software updates without a visit',
          text: 'Control-system updates and parameter changes are tested ashore and applied remotely in an agreed window, with a rollback plan.',
        },
        {
          title: 'Works on a small link',
          text: 'The connection is built for satellite bandwidth: only what is needed is sent, and transfers resume where they stopped.',
        },
      ]}
    >
      <Typography>
        Remote access is set up during a port call in about half a day. The Automate file upload card on a
        ship&apos;s configuration page prepares the package for the onboard uploader.
      </Typography>
    </ServiceArticle>
  );
}
